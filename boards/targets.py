"""FPGA targets of ``nnaccel synth`` and the blocks it can synthesize (plain data: importing this
needs no Amaranth, so the CLI stays quick)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DESIGNS", "TARGETS", "Target"]

#: Blocks ``nnaccel synth --design`` knows (see :func:`nnaccel.boards.synth.design_for`).
#: ``core`` is ``top`` with the scratchpads shrunk to their minimum sizes (see
#: :func:`nnaccel.boards.synth.minimal_scratchpads`); ``requant`` is the pipelined
#: :class:`~nnaccel.hw.vector.RequantLane`, ``mbqm`` the combinational fixed-point multiply with
#: one 32 x 32 multiplier that each lane of the accelerator's vector engine uses; ``vector`` is the
#: accelerator's vector engine alone (:class:`~nnaccel.hw.vecengine.VectorEngine`, its scratchpad
#: ports and instruction word in the harness); ``queue`` is one engine's instruction queue
#: (:class:`~nnaccel.hw.queue.InstructionQueue`, the compute queue, of the queued machine when the
#: preset runs in order); ``counters`` the performance counters
#: (:class:`~nnaccel.hw.counters.PerfCounters`, with the accelerator's increment ports); ``dma`` the
#: DMA engine of the load queue (:class:`~nnaccel.hw.dma.DmaEngine`; with one DMA engine, the engine
#: of both queues); ``gemm`` the GEMM engine (:class:`~nnaccel.hw.gemm.GemmEngine`, the systolic
#: array included); ``fetch`` the fetch unit and control (:class:`~nnaccel.hw.fetch.Fetch`: the
#: decoder, the queues or the in-order executor, the tokens, the halts).
DESIGNS = ("core", "top", "array", "requant", "mbqm", "decoder", "scratchpad", "vector", "queue", "counters",
           "dma", "gemm", "fetch")


@dataclass(frozen=True)
class Target:
    """A device: its Yosys synthesis command, nextpnr tool + device flags, and budgets."""

    name: str
    family: str
    synth: str
    nextpnr: str
    device_args: tuple[str, ...]
    budget: dict
    #: Array cells a DSP holds (``array_dsp``: how they use it, ``SystolicArray``'s ``dsp``; None:
    #: one product each).
    cells_per_dsp: int = 1
    array_dsp: str | None = None
    #: Operand width of one DSP multiplier (SB_MAC16: 16 x 16, MULT18X18D: 18 x 18).
    dsp_width: int = 16
    #: A global buffer cell the synthesis harness puts on the reset (``SynthHarness``), or None.
    reset_buffer: str | None = None
    #: Options added to ``synth``.
    abc_opts: str = ""
    #: The presets meant for this target's device (``nnaccel synth``'s default target for them).
    presets: tuple[str, ...] = ()
    #: Whether ``nnaccel synth`` lets Yosys name the internal nets (``autoname``: readable critical
    #: path ends in nextpnr's report); on base's netlist for the 85F it runs out of YoWASP's memory.
    autoname: bool = True

    def vector_lane_dsp(self, cfg) -> int:
        """DSPs one vector lane takes: its multiplier's piece (``cfg.vector_mul_piece``: 32 x 32
        for ``vector_mul_steps`` 1, 32 x 16 for 2, 16 x 16 for 4) in DSP-sized parts (``nnaccel
        synth --design vector``): 4, 2 or 1 on both targets; none for a 1-bit piece (32: the
        bit-serial lane, AND gates in front of its adder). The array gets the rest:
        :meth:`array_dsp_cells`."""
        xb, mb = cfg.vector_mul_piece
        if min(xb, mb) == 1:
            return 0
        return -(-xb // self.dsp_width) * -(-mb // self.dsp_width)

    def array_dsp_cells(self, cfg) -> int:
        """Array cells on DSP multipliers for configuration ``cfg``: the DSPs the vector lanes leave,
        times the cells each holds (the other cells multiply in LUTs)."""
        free = max(0, self.budget["dsp"] - cfg.vector_lanes * self.vector_lane_dsp(cfg))
        return min(cfg.rows * cfg.cols, free * self.cells_per_dsp)


def default_target(cfg) -> str:
    """The target ``cfg``'s preset is meant for (``ecp5`` for any other configuration)."""
    return next((name for name, t in TARGETS.items() if cfg.name in t.presets), "ecp5")


TARGETS = {
    "ice40": Target("ice40", "ice40", "synth_ice40 -dsp -spram", "nextpnr-ice40", ("--up5k", "--package", "sg48"),
                    {"device": "iCE40UP5K", "lut": 5280, "dsp": 8, "bram": 30, "spram": 4, "ff": 5280},
                    cells_per_dsp=2, array_dsp="ice40_dual8",    # two 8x8 products per SB_MAC16
                    abc_opts="-abc9 -dff", presets=("tiny",)),
    "ecp5": Target("ecp5", "ecp5", "synth_ecp5", "nextpnr-ecp5", ("--25k", "--package", "CABGA256"),
                   {"device": "LFE5U-25F", "lut": 24288, "dsp": 28, "bram": 56, "ff": 24288},
                   dsp_width=18, array_dsp="ecp5", reset_buffer="DCCA", presets=("small",)),   # signed 9x9 products on MULT18X18D, LUT cells in CCU2C chains
    # the ULX3S-85F's device: as ecp5, on the LFE5U-85F (CABGA381)
    "ecp5-85f": Target("ecp5-85f", "ecp5", "synth_ecp5", "nextpnr-ecp5", ("--85k", "--package", "CABGA381"),
                       {"device": "LFE5U-85F", "lut": 83640, "dsp": 156, "bram": 208, "ff": 83640},
                       dsp_width=18, array_dsp="ecp5", reset_buffer="DCCA", presets=("base",), autoname=False),
}
