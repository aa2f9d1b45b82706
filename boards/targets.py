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
#: ports and instruction word in the harness).
DESIGNS = ("core", "top", "array", "requant", "mbqm", "decoder", "scratchpad", "vector")


@dataclass(frozen=True)
class Target:
    """A device: its Yosys synthesis command, nextpnr tool + device flags, and budgets."""

    name: str
    family: str
    synth: str
    nextpnr: str
    device_args: tuple[str, ...]
    budget: dict
    dsp_cells: int        # array cells given a DSP multiplier (the rest use LUT multipliers)
    array_dsp: str | None = None   # how those cells use DSPs (``SystolicArray``'s ``dsp``: None = one each)


TARGETS = {
    "ice40": Target("ice40", "ice40", "synth_ice40 -dsp -spram", "nextpnr-ice40", ("--up5k", "--package", "sg48"),
                    {"device": "iCE40UP5K", "lut": 5280, "dsp": 8, "bram": 30, "spram": 4, "ff": 5280}, dsp_cells=16,
                    array_dsp="ice40_dual8"),        # two 8x8 products per SB_MAC16: 16 cells on 8
    "ecp5": Target("ecp5", "ecp5", "synth_ecp5", "nextpnr-ecp5", ("--25k", "--package", "CABGA256"),
                   {"device": "LFE5U-25F", "lut": 24288, "dsp": 28, "bram": 56, "ff": 24288}, dsp_cells=28),
}
