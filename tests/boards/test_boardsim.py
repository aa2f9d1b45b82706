"""board-sim: the iCEBreaker's whole SoC in Verilator, driven byte by byte through its UART by the
host link client: a conformance model bit-exact with the golden model with the ISA simulator's
cycles, and the link's error paths (corrupted frames both ways, a wrong identity, a timeout)."""

import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from nnaccel.boards.catalog import board
from nnaccel.boards.soc import max_step_cycles
from nnaccel.firmware.link import IdentityError, LinkClient, LinkError, SocketTransport, cycles_per_byte

from nnaccel import linkproto as lp
from nnaccel.hwconfig import load_config

pytestmark = [pytest.mark.rtl, pytest.mark.slow]


class Faulty:
    """A transport that flips one bit of the next ``corrupt_out`` frames written, of the next
    ``corrupt_in`` bytes read, or drops every frame written while ``drop``."""

    def __init__(self, inner):
        self.inner = inner
        self.corrupt_out = self.corrupt_in = 0
        self.drop = False
        self.truncate = 0

    def write(self, data):
        if self.drop:
            return
        if self.truncate:
            self.truncate -= 1
            data = data[:len(data) // 2]
        elif self.corrupt_out:
            self.corrupt_out -= 1
            data = data[:-3] + bytes([data[-3] ^ 0x10]) + data[-2:]
        self.inner.write(data)

    def read(self, n):
        data = self.inner.read(n)
        if self.corrupt_in and data:
            self.corrupt_in -= 1
            data = bytes([data[0] ^ 0x01]) + data[1:]
        return data

    def drain(self):
        self.inner.drain()


@pytest.fixture(scope="module")
def sim():
    from nnaccel.boards.boardsim import BoardSim
    with BoardSim(board("icebreaker")) as s:
        s.transport = SocketTransport(s.sock, timeout=5.0)
        yield s


@pytest.mark.ci_slow          # CI runs board-sim on this small model (the iCEBreaker SoC in Verilator)
def test_conv_quant8_bit_exact_with_isa_cycles(sim, cts_root):
    from nnaccel.compiler.compile import compile_model
    from nnaccel.firmware.link import board_backend
    from nnaccel.firmware.runtime import Runtime

    from nnaccel.formats import load_model
    from nnaccel.golden.interpreter import Interpreter
    b = board("icebreaker")
    model = load_model(cts_root / "V1_0" / "conv_quant8.json.gz", "conv_quant8")
    inputs = model.stored_inputs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pkg = compile_model(model, b.config())
    client = LinkClient(sim.transport)
    backend = board_backend(client, b.mem_bytes, cycles_per_byte(b), max_step_cycles(b.config()))
    outs, rep = Runtime(pkg).run(inputs, backend, name="board-sim")
    assert rep["backend"] == "board-sim"
    for got, want in zip(outs, Interpreter(model).run(inputs)):
        np.testing.assert_array_equal(got, want)
    _, isa = Runtime(pkg).run(inputs, "isa")
    assert [s["cycles"] for s in rep["segments"]] == [s["cycles"] for s in isa["segments"]]
    assert rep["segments"][0]["counters"]["macs"] == isa["segments"][0]["counters"]["macs"]


def test_board_backend_through_a_pty_to_the_simulation(sim, cts_root, tmp_path, capsys):
    """``nnaccel run --backend board --port PTY``: the board backend opens a pseudo-terminal with
    pyserial, whose far end is bridged to the simulated SoC's UART; the outputs equal the golden
    model's and the segment cycles the ISA simulator's."""
    import json

    from nnaccel.compiler.compile import compile_model
    from nnaccel.firmware.runtime import Runtime
    from support.pty_link import PtyBridge

    from nnaccel.cli import main
    from nnaccel.formats import load_model
    model = cts_root / "V1_0" / "conv_quant8.json.gz"
    outs, report = tmp_path / "o.npz", tmp_path / "r.json"
    with PtyBridge(sim.sock) as pty:
        assert main(["run", str(model), "--name", "conv_quant8", "--backend", "board", "--board", "icebreaker",
                     "--port", pty.path, "--link-timeout", "30", "--outputs", str(outs),
                     "--report", str(report)]) == 0
    golden = tmp_path / "g.npz"
    assert main(["run", str(model), "--name", "conv_quant8", "--backend", "golden", "--outputs", str(golden)]) == 0
    got, want = np.load(outs), np.load(golden)
    assert got.files == want.files
    for k in want.files:
        np.testing.assert_array_equal(got[k], want[k])
    rep = json.loads(report.read_text())
    assert rep["backend"] == "board"
    loaded = load_model(model, "conv_quant8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pkg = compile_model(loaded, board("icebreaker").config())
    _, isa = Runtime(pkg).run(loaded.stored_inputs, "isa")
    assert [s["cycles"] for s in rep["segments"]] == [s["cycles"] for s in isa["segments"]]
    capsys.readouterr()


def test_corrupted_frames_are_retried(sim):
    t = Faulty(sim.transport)
    c = LinkClient(t, retries=3)
    data = bytes(range(7, 7 + 200))
    t.corrupt_out = 1           # the board sees a bad CRC, answers CRC_ERROR, the frame is resent
    c.write(0x400, data)
    assert c.retried == 1
    t.corrupt_in = 1            # the reply's sync byte is damaged: no reply found, resent
    assert c.read(0x400, len(data)) == data
    assert c.retried == 2


def test_wrong_identity(sim):
    c = LinkClient(sim.transport)
    assert c.identity() == lp.decode_identity(lp.encode_identity(board("icebreaker").config()))
    with pytest.raises(IdentityError, match="another hardware configuration"):
        c.check_identity(load_config("small"))


def test_timeout_then_recovery(sim):
    t = Faulty(sim.transport)
    c = LinkClient(t, retries=1)
    t.drop = True
    with pytest.raises(LinkError, match=r"failed on STATUS after 2 attempts \(no reply to STATUS\)"):
        c.status()
    t.drop = False
    t.truncate = 1              # half a frame: the board drops it after its idle timeout
    assert c.status()["busy"] == 0
    assert c.retried == 2


def test_mlperf_kws_on_the_ulx3s_bit_exact_with_isa_cycles(mlperf_tiny_root):
    """The MLPerf Tiny KWS model on the ULX3S-85F's whole SoC (small, 256 KiB of block RAM): its data
    and program go over the simulated UART, the outputs equal the golden model's and the segment
    cycles the ISA simulator's."""
    from nnaccel.boards.boardsim import BoardSim
    from nnaccel.compiler.compile import compile_model
    from nnaccel.compiler.tflite_import import load_tflite
    from nnaccel.firmware.link import board_backend
    from nnaccel.firmware.runtime import Runtime

    from nnaccel.formats import run_inputs
    from nnaccel.golden.interpreter import Interpreter
    b = board("ulx3s-85f")
    model = load_tflite(mlperf_tiny_root / "kws_ref_model.tflite")
    inputs, _ = run_inputs(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pkg = compile_model(model, b.config())
    with BoardSim(b) as s:
        client = LinkClient(SocketTransport(s.sock, timeout=30.0))
        backend = board_backend(client, b.mem_bytes, cycles_per_byte(b), max_step_cycles(b.config()))
        outs, rep = Runtime(pkg).run(inputs, backend, name="board-sim")
    for got, want in zip(outs, Interpreter(model).run(inputs)):
        np.testing.assert_array_equal(got, want)
    _, isa = Runtime(pkg).run(inputs, "isa")
    assert [s["cycles"] for s in rep["segments"]] == [s["cycles"] for s in isa["segments"]]


def test_wave_window_of_the_board_simulation(tmp_path, capsys, cts_root):
    """``nnaccel run --backend board-sim --wave FILE.fst --wave-window START:END``: the FST-tracing
    build of the SoC writes one waveform of the session, opened where its count of the
    accelerator's cycles reaches START and closed after END, which an FST reader (pywellen) parses;
    the run is still bit-exact with the golden model."""
    if not Path("/usr/include/lz4.h").exists():
        msg = "Verilator's FST writer needs the LZ4 headers (Debian's liblz4-dev, which .ci/run installs)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg + "; under CI they must be present")
        pytest.skip(msg)
    pywellen = pytest.importorskip("pywellen")
    from nnaccel.cli import main
    model = cts_root / "V1_0" / "conv_quant8.json.gz"
    wave, outs = tmp_path / "board.fst", tmp_path / "o.npz"
    first, last = 20, 120
    assert main(["run", str(model), "--name", "conv_quant8", "--backend", "board-sim", "--board", "icebreaker",
                 "--wave", str(wave), "--wave-window", f"{first}:{last}", "--outputs", str(outs)]) == 0
    assert f"wrote the waveform of the board simulation (1 segments) to {wave}" in capsys.readouterr().out
    golden = tmp_path / "g.npz"
    assert main(["run", str(model), "--name", "conv_quant8", "--backend", "golden", "--outputs", str(golden)]) == 0
    a, b = np.load(outs), np.load(golden)
    for k in b.files:
        np.testing.assert_array_equal(a[k], b[k])
    w = pywellen.Waveform(str(wave))
    assert w.file_format == "FST"
    by_name = {v.full_name: v for v in w.all_vars()}
    count = next(v for name, v in by_name.items() if name.endswith("soc.session_cycles"))
    assert any(name.endswith(".tx") for name in by_name) and any(".accel." in name for name in by_name)
    seen = []
    w.stream_changes(lambda t, sig, value: seen.append(int(value)), [count])
    assert seen and first <= seen[0] <= first + 1 and last <= seen[-1] <= last + 2
    assert len(seen) >= last - first
