"""Counters wrap modulo ``2 ** counter_bits`` (a configuration field; docs/isa.md, "Performance
counters"): the ISA simulator's counters and RDPERF snapshots of a narrow configuration equal those
of the same machine with 64-bit counters reduced modulo ``2 ** counter_bits`` (an independent
expectation: the wide run never wraps), and the cycle model does not change."""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim
from support.counter_programs import counter_snapshot_program

from nnaccel.hwconfig import ConfigError, load_config
from nnaccel.isa import COUNTERS, N_COUNTERS

SNAPS = (0x6000, 0x7000)


def wrap_program(cfg):
    """LOADs, GEMMs (16 MACs per line on tiny), an RDPERF in the middle and one at the end: a few
    thousand cycles, so 8-bit counters wrap several times."""
    return counter_snapshot_program(cfg, SNAPS, 6, 4, preload_ny=1)


def run(cfg):
    sim = IsaSim(cfg, mem_size=1 << 16)
    sim.write(0, np.arange(32 * cfg.rows, dtype=np.uint8))
    res = sim.run(wrap_program(cfg))
    snaps = [sim.mem[a:a + 8 * N_COUNTERS].view("<u8").copy() for a in SNAPS]
    return res, snaps


@pytest.mark.parametrize("bits", [8, 12, 32])
def test_counters_wrap_modulo_counter_bits(bits):
    wide = load_config("tiny").replace(name="tiny-c64", counter_bits=64)
    narrow = wide.replace(name=f"tiny-c{bits}", counter_bits=bits)
    rw, sw = run(wide)
    rn, sn = run(narrow)
    mod = 1 << bits
    assert rn.schedule.total_cycles == rw.schedule.total_cycles         # same timing
    assert rn.counters == {k: v % mod for k, v in rw.counters.items()}
    for a, b in zip(sw, sn):
        assert (b == a % mod).all()
    # the wide totals stay available (cycles, macs, utilization use them)
    assert (rn.cycles, rn.macs) == (rw.cycles, rw.macs)
    if bits == 8:   # the test really wraps: several counters pass 2 ** 8 in the snapshots and at the end
        assert rw.counters["cycles"] > mod and rw.counters["macs"] > mod
        ids = {c.name: c.id for c in COUNTERS}
        assert sw[1][ids["macs"]] >= mod and sn[1][ids["macs"]] < mod


@pytest.mark.parametrize("bits", [7, 65])
def test_counter_bits_range(bits):
    with pytest.raises(ConfigError):
        load_config("tiny").replace(counter_bits=bits)
