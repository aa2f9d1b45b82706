"""The decoder generated from the ISA table against the ISA simulator's decode + checks: same fault
code (or none) and the same queue for every word, decided after the table's fetch cycles
(Amaranth simulation)."""

import numpy as np
from amaranth.sim import Simulator
from nnaccel.hw.decoder import CONTROL_QUEUE, QUEUE_CODE, Decoder
from nnaccel.sim.isasim import decode_checked

from nnaccel.hwconfig import ELEMENT_BYTES, load_config
from nnaccel.isa import INSTRUCTIONS, AcceleratorFault, encode
from nnaccel.isa.table import (
    BY_OPCODE,
    FAULT_BY_NAME,
    FETCH_CYCLES,
    FLAG_CHANNEL,
    FLAG_NAMES,
    N_COUNTERS,
    QUEUES,
    SPACE_ENUM,
    VEC_FUNCS,
)


def expected(word, cfg):
    try:
        d = decode_checked(word, 0, cfg)
    except AcceleratorFault as e:
        return e.code, None
    return 0, QUEUE_CODE.get(d.queue, CONTROL_QUEUE)


def near_window(cfg, ins, rng):
    """Field values of a LOAD / STORE whose bytes end (or start) within a few bytes of the DMA
    window's end (start): random strides and sizes, the address placed from the box's extent."""
    vals = {f.name: int(rng.integers(0, min(f.max, 4) + 1)) for f in ins.fields}
    vals["sp"] = int(rng.integers(0, 4))
    vals["len"] = int(rng.integers(1, cfg.line_elems + 1))
    for k in ("x_size", "y_size"):
        vals[k] = int(rng.integers(1, 40))
    for k in ("x_stride", "y_stride"):
        vals[k] = int(rng.integers(0, 1 << 16))
    for k in ("pad_top", "pad_bottom", "pad_left", "pad_right"):
        vals[k] = 0
    eb = ELEMENT_BYTES[SPACE_ENUM[vals["sp"]]]
    extent = ((vals["y_size"] - 1) * vals["y_stride"] + (vals["x_size"] - 1) * vals["x_stride"]
              + vals["len"] * eb)
    if rng.random() < 0.7:
        ext = cfg.dma_base + cfg.dma_size - extent + int(rng.integers(-3, 4))
    else:
        ext = cfg.dma_base + int(rng.integers(-3, 4))
    vals["ext_addr"] = ext % (1 << 32)
    vals["sp_addr"] = 0
    return vals


def near_limit(cfg, ins, rng):
    """Field values of a GEMM / VEC that land near the scratchpad ends: the base just below the
    line count minus the iteration's extent, so that a few lines more or less decide the fault."""
    if ins.name in ("LOAD", "STORE"):
        return near_window(cfg, ins, rng)
    vals = {f.name: int(rng.integers(0, min(f.max, 4) + 1)) for f in ins.fields}
    if ins.name == "DWCONV":      # a small legal window (fh within every preset's line buffers)
        vals.update(fh=1 + int(rng.random() < 0.3), fw=int(rng.integers(1, 4)), nx=int(rng.integers(1, 30)),
                    ny=int(rng.integers(1, 30)))
        # padding rows / columns the window may have (some of them: the window's end moves)
        vals.update(pad_top=0, pad_bottom=int(rng.integers(0, vals["fh"])), pad_left=int(rng.integers(0, vals["fw"])),
                    pad_right=0)
    spaces = {"GEMM": {"act": "ACT", "acc": "ACC", "wgt": "WGT"}, "DWCONV": {"act": "ACT", "acc": "ACC", "wgt": "WGT"},
              "VEC": {"dst": "ACT", "src": "ACC", "src2": "ACT", "param": "VEC"}}[ins.name]
    for base, space in spaces.items():
        vals[base] = max(0, cfg.lines(space) - int(rng.integers(0, 40)))
    return vals


def words_for(cfg, rng, n):
    """Random words of every opcode: fields drawn small, near the limits, or random; some with
    reserved bits or undefined values; GEMM / VEC also with bases near the scratchpad ends, LOAD /
    STORE with bytes near the DMA window's ends."""
    out = []
    for _ in range(n):
        ins = INSTRUCTIONS[rng.integers(len(INSTRUCTIONS))]
        vals = {}
        if ins.name in ("GEMM", "VEC", "LOAD", "STORE", "DWCONV") and rng.random() < 0.3:
            vals = near_limit(cfg, ins, rng)
        for f in ([] if vals else ins.fields):
            r = rng.random()
            if r < 0.5:
                vals[f.name] = int(rng.integers(0, min(f.max, 8) + 1))
            elif r < 0.8:
                vals[f.name] = int(rng.integers(0, f.max + 1))
            else:
                vals[f.name] = int(max(0, f.max - rng.integers(0, 3)))
            if f.enum is not None and rng.random() < 0.9:
                vals[f.name] %= len(f.enum)
        w = ins.opcode                      # raw fields: undefined enum values stay possible
        for f in ins.fields:
            w |= vals[f.name] << f.lo
        for flag in range(4, 8):
            if rng.random() < 0.15:
                w |= 1 << flag
        if rng.random() < 0.1:
            w |= 1 << int(rng.integers(8, 128))
        if rng.random() < 0.03:
            w = (w & ~0xF) | int(rng.integers(8, 16))
        out.append(w)
    return out


def case_of(word, cfg):
    """A label for the ISA v2 cases the random mix must contain (judged by the ISA simulator)."""
    code, _ = expected(word, cfg)
    op = word & 0xF
    ins = BY_OPCODE.get(op)
    if ins is None or (word & ins.reserved_mask):
        return None
    f = {x.name: (word >> x.lo) & x.max for x in ins.all_fields}
    if ins.name == "NOP":
        return ("NOP", QUEUES[f["queue"]], code)
    if ins.name == "DWCONV":
        return ("DWCONV", code)
    if ins.name == "GEMM" and f["kt"]:
        # does the range fault depend on the K tiles? the same word with kt = 0 as reference
        code0, _ = expected(word & ~ins.field_map["kt"].mask, cfg)
        return ("GEMM kt", code, code0 != code)
    return None


def test_decoder_matches_isa_simulator():
    for name in ("tiny", "small", "large"):   # large: 32 rows (the WGT check)
        cfg = load_config(name)
        if name == "small":
            cfg = cfg.replace(dma_base=0x100000, dma_size=0x400000)   # a window with a lower bound
        words = words_for(cfg, np.random.default_rng(3), 1500)
        cases = {case_of(w, cfg) for w in words}
        illegal, srange = FAULT_BY_NAME["ILLEGAL_FIELD"].code, FAULT_BY_NAME["SCRATCHPAD_RANGE"].code
        for q in QUEUES:                   # a NOP of every queue, legal and with a flag it may not use
            assert ("NOP", q, 0) in cases, (name, q)
            if any((q, fl) not in FLAG_CHANNEL for fl in FLAG_NAMES):
                assert ("NOP", q, illegal) in cases, (name, q)
        assert ("GEMM kt", 0, False) in cases, name                # K tiles, legal
        assert ("GEMM kt", illegal, True) in cases, name           # kt > 0 without preload
        assert ("GEMM kt", srange, True) in cases, name            # out of range only by the K tiles
        dw_codes = (0, illegal, srange) if cfg.depthwise_mode else (FAULT_BY_NAME["ILLEGAL_OPCODE"].code,)
        for code in dw_codes:                                      # DWCONV legal, bad fields, out of range
            assert ("DWCONV", code) in cases, (name, code)
        seen = run_decoder(cfg, words)
        # every fault the decoder decides at fetch was exercised
        for f in ("ILLEGAL_OPCODE", "ILLEGAL_FIELD", "SCRATCHPAD_RANGE", "DMA_WINDOW"):
            assert FAULT_BY_NAME[f].code in seen, f
        assert 0 in seen


def run_decoder(cfg, words) -> set:
    """Feeds ``words`` to the decoder the way the fetch unit does and checks each one against the
    ISA simulator; returns the fault codes seen."""
    dut = Decoder(cfg)
    seen = set()

    async def bench(ctx):
        for w in words:
            # the fetch unit's protocol: a new word with restart, then wait for ready
            ctx.set(dut.word, w)
            ctx.set(dut.restart, 1)
            await ctx.tick()
            ctx.set(dut.restart, 0)
            waited = 1
            while not ctx.get(dut.ready):
                assert ctx.get(dut.fault) == 0       # no fault before the checks are done
                await ctx.tick()
                waited += 1
            ins = BY_OPCODE.get(w & 0xF)
            if ins:
                assert ctx.get(dut.fetch_cycles) == ins.fetch_cycles
            # ready in the cycle the ISA appends the word: fetch_cycles after the restart cycle
            assert waited == (ins.fetch_cycles if ins else min(FETCH_CYCLES.values())), (hex(w), waited)
            code, queue = expected(w, cfg)
            got = ctx.get(dut.fault)
            assert got == code, (hex(w), got, code)
            if code == 0:
                assert ctx.get(dut.queue) == queue
                assert ctx.get(dut.is_finish) == ((w & 0xF) == 7)
            seen.add(code)
            await ctx.tick()                        # ready and the fault hold while waiting
            assert ctx.get(dut.ready) and ctx.get(dut.fault) == code

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    return seen


def boundary_words(cfg, rng, n):
    """Words whose last line / byte lands exactly on the last legal one or one past it: GEMM and
    VEC operand spans, LOAD / STORE box lines and DMA bytes, RDPERF's counter block (the extents computed here from the
    ISA's formulas; the expected fault comes from the ISA simulator)."""
    out = []
    end = cfg.dma_base + cfg.dma_size
    for _ in range(n):
        d = int(rng.integers(0, 2))                 # 0: exactly the last legal line / byte; 1: one past
        nx, ny = int(rng.integers(1, 40)), int(rng.integers(1, 40))
        xs, ys = int(rng.integers(0, 256)), int(rng.integers(0, 256))
        kind = rng.integers(7)
        if kind == 6:                               # RDPERF: the counter block's last byte
            out.append(encode("RDPERF", ext_addr=end - 8 * N_COUNTERS + d))
        elif kind == 0:                               # GEMM activation rows of all K tiles
            kt = int(rng.integers(0, 16))
            span = (ny * (kt + 1) - 1) * ys + (nx - 1) * xs
            act = cfg.lines("ACT") - 1 - span + d
            if act < 0:
                continue
            out.append(encode("GEMM", nx=nx, ny=ny, act_xs=xs, act_ys=ys, kt=kt, preload=1, act=act))
        elif kind == 1:                             # GEMM result lines
            span = (ny - 1) * ys + (nx - 1) * xs
            acc = cfg.lines("ACC") - 1 - span + d
            if acc < 0:
                continue
            out.append(encode("GEMM", nx=nx, ny=ny, acc_xs=xs, acc_ys=ys, acc=acc))
        elif kind == 2:                             # VEC destination, source or second source
            vf = VEC_FUNCS[rng.integers(len(VEC_FUNCS))]
            span = (ny - 1) * ys + (nx - 1) * xs
            role = ["dst", "src", "src2"][rng.integers(3 if vf.binary else 2)]
            space = getattr(vf, role)
            base = cfg.lines(space) - 1 - span + d
            if base < 0:
                continue
            strides = {"dst_xs": xs, "dst_ys": ys} if role != "src" else {"src_xs": xs, "src_ys": ys}
            out.append(encode("VEC", func=vf.code, nx=nx, ny=ny, **strides, **{role: base}))
        else:                                       # LOAD / STORE: box lines or DMA bytes
            name = "LOAD" if kind == 3 else "STORE"
            sp = int(rng.integers(0, len(SPACE_ENUM)))
            ln = int(rng.integers(1, cfg.line_elems + 1))
            xsz, ysz = int(rng.integers(1, 40)), int(rng.integers(1, 40))
            xst, yst = int(rng.integers(0, 1 << 16)), int(rng.integers(0, 1 << 16))
            f = {"sp": sp, "len": ln, "x_size": xsz, "y_size": ysz, "x_stride": xst, "y_stride": yst}
            if rng.random() < 0.5:                  # the box's last line
                addr = cfg.lines(SPACE_ENUM[sp]) - xsz * ysz + d
                if addr < 0:
                    continue
                out.append(encode(name, sp_addr=addr, ext_addr=cfg.dma_base, **f))
            else:                                   # the last data byte in the window
                extent = (ysz - 1) * yst + (xsz - 1) * xst + ln * ELEMENT_BYTES[SPACE_ENUM[sp]]
                ext = end - extent + d
                if rng.random() < 0.5:              # or far inside: the same low bits, legal
                    ext -= 1 << int(rng.integers(16, 32))
                if not cfg.dma_base <= ext < 1 << 32:
                    continue
                out.append(encode(name, ext_addr=ext, **f))
    return out


def test_decoder_boundaries():
    """The range / window checks at their exact edges: the last legal line / byte passes, one more
    faults (the ISA simulator says which), for GEMM, VEC, LOAD and STORE."""
    for name in ("tiny", "small", "large"):   # large: a window of 2**30 bytes, wider than B
        cfg = load_config(name)
        if name == "small":
            cfg = cfg.replace(dma_base=0x100000, dma_size=0x400000)
        words = boundary_words(cfg, np.random.default_rng(7), 600)
        codes = [expected(w, cfg)[0] for w in words]
        for f in ("SCRATCHPAD_RANGE", "DMA_WINDOW"):
            assert FAULT_BY_NAME[f].code in codes, (name, f)
        assert codes.count(0) > len(codes) // 4, name
        run_decoder(cfg, words)
