"""Counters of ``counter_bits`` < 64 on the RTL: an 8-bit-counter copy of tiny runs a program whose
counters wrap several times (RDPERF in the middle and at the end); the RDPERF bytes and every
counter equal the ISA simulator's, which equal the 64-bit machine's reduced modulo 2 ** 8; the run's
length (``RtlResult.cycles``) and MACs do not wrap."""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim
from nnaccel.sim.programs import counter_snapshot_program

from nnaccel.hwconfig import load_config
from nnaccel.isa import N_COUNTERS

pytestmark = pytest.mark.rtl
SNAPS = (0x6000, 0x7000)
WIDE = load_config("tiny").replace(name="tiny-c64", counter_bits=64)
NARROW = WIDE.replace(name="tiny-c8", counter_bits=8)


def program(cfg):
    return counter_snapshot_program(cfg, SNAPS, 3, 1)


def test_counters_wrap_like_isa_sim():
    from nnaccel.sim.rtl_runner import run_words_rtl
    image = {0: np.arange(32 * NARROW.rows, dtype=np.uint8)}
    res = {}
    for cfg in (WIDE, NARROW):
        sim = IsaSim(cfg, mem_size=1 << 16)
        sim.write(0, image[0])
        r = sim.run(program(cfg))
        res[cfg.counter_bits] = (r, [sim.mem[a:a + 8 * N_COUNTERS].tobytes() for a in SNAPS])
    (rw, sw), (rn, sn) = res[64], res[8]
    assert rw.counters["macs"] > 256 and rw.counters["cycles"] > 256         # it does wrap
    assert rn.counters == {k: v % 256 for k, v in rw.counters.items()}
    for a, b in zip(sw, sn):
        assert (np.frombuffer(b, "<u8") == np.frombuffer(a, "<u8") % 256).all()
    rtl = run_words_rtl(NARROW, program(NARROW), image, read=[(a, 8 * N_COUNTERS) for a in SNAPS],
                        max_cycles=100_000)
    assert rtl.fault == "OK"
    assert rtl.regions == sn
    assert rtl.counters == rn.counters
    # the run's length does not wrap (the simulation top level counts it in 64 bits): the ISA
    # simulator's total_cycles, which the wide machine's cycles counter reads; the cycles counter
    # is it modulo 2 ** 8; the MACs likewise
    assert rtl.cycles == rn.schedule.total_cycles == rw.counters["cycles"] > 256
    assert rtl.counters["cycles"] == rtl.cycles % 256 != rtl.cycles
    assert rtl.macs == rw.counters["macs"] and rtl.counters["macs"] == rtl.macs % 256
