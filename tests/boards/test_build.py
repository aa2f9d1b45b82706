"""``nnaccel build``: each board's bitstream through the pip toolchain (YoWASP), routed, with timing
met at the board clock, in the format its loader reads (the iCE40 preamble ``7E AA 99 7E``; the
ECP5 ``.bit`` header ``FF 00`` ... ``00 FF``, then the sync word ``BD B3`` and the device's
IDCODE)."""

import pytest
from nnaccel.boards.build import build_bitstream
from nnaccel.boards.catalog import board

pytestmark = [pytest.mark.synth, pytest.mark.slow]


def _check_format(name, raw):
    if name == "icebreaker":
        assert bytes.fromhex("7EAA997E") in raw[:16]
    else:
        assert raw[:2] == b"\xff\x00"
        end = raw.index(b"\x00\xff", 2)
        assert b"LFE5U-85F" in raw[:end]
        assert b"\xbd\xb3" in raw[end:end + 16]
        # VERIFY_ID (E2, three zero bytes) with the LFE5U-85F's JTAG IDCODE (Lattice: 0x41113043)
        assert bytes.fromhex("E200000041113043") in raw[end:end + 64]


# the iCEBreaker's is the cheaper build (minutes): CI runs it (-m ci_slow)
@pytest.mark.parametrize("name", [pytest.param("icebreaker", marks=pytest.mark.ci_slow), "ulx3s-85f"])
def test_bitstream_routes_and_meets_timing(name, tmp_path):
    b = board(name)
    rep = build_bitstream(b, tmp_path / f"{name}{b.extension}", workdir=tmp_path / "work", log=lambda m: None)
    raw = (tmp_path / f"{name}{b.extension}").read_bytes()
    _check_format(name, raw)
    assert rep["fmax_mhz"] >= b.clock_mhz
    text = (tmp_path / "work" / "top.tim").read_text()
    assert "Routing complete" in text or "Router2 time" in text
    assert all(used <= avail for used, avail in rep["resources"].values())
