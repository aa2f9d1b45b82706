"""One check the RTL tests share: a program on the ISA simulator and on the Verilator RTL, the same
bytes in every region read back and the same value in every counter."""

from nnaccel.sim.isasim import IsaSim, find_conflicts


def run_isa_and_rtl(cfg, words, image: dict, out: list, mem: int) -> list[bytes]:
    """Runs ``words`` on both (memory ``image``: address -> bytes, ``mem`` bytes of it), asserts
    no race or bank conflict, no fault, equal regions ``out`` ((address, bytes) each) and equal
    counters; returns the regions."""
    from nnaccel.sim.rtl_runner import run_words_rtl
    assert not find_conflicts(words, cfg)
    sim = IsaSim(cfg, mem_size=mem)
    for a, d in image.items():
        sim.write(a, d)
    res = sim.run(words)                  # (a fault raises)
    want = [sim.mem[a:a + n].tobytes() for a, n in out]
    rtl = run_words_rtl(cfg, words, image, read=out, max_cycles=400_000)
    assert rtl.fault == "OK"
    assert list(rtl.regions) == want
    assert rtl.counters == res.counters
    return want
