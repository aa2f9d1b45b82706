"""``nnaccel run --backend board --port DEVICE``, the real board backend (pyserial on the port, the
link client, the runtime), without a board: its error paths against a pseudo-terminal whose far end
a test script drives with the link protocol. (``test_boardsim.py`` runs a model through the same
backend against the board's simulation behind a pty.)"""

import time

import pytest
from nnaccel.boards.catalog import board
from support.pty_link import ScriptedDevice

from nnaccel import linkproto as lp
from nnaccel.cli import main
from nnaccel.hwconfig import load_config


def _run_on(cts_root, port, capsys):
    """``nnaccel run conv_quant8 --backend board --board icebreaker --port PORT``: (exit status, stderr)."""
    model = cts_root / "V1_0" / "conv_quant8.json.gz"
    status = main(["run", str(model), "--name", "conv_quant8", "--backend", "board", "--board", "icebreaker",
                   "--port", str(port)])
    return status, capsys.readouterr().err


def test_no_device_at_the_port(cts_root, tmp_path, capsys):
    status, err = _run_on(cts_root, tmp_path / "ttyUSB7", capsys)
    assert status == 1
    assert f"The serial port {tmp_path / 'ttyUSB7'} cannot be opened" in err


def test_identity_of_another_configuration(cts_root, capsys):
    """A bitstream for ``small`` on the port: the run stops at the identity check, before any
    upload, and names the configuration it expected."""
    def answer(cmd, addr, length, payload):
        return ("OK", lp.encode_identity(load_config("small"))) if cmd == "IDENT" else ("OK", b"")
    with ScriptedDevice(answer) as dev:
        status, err = _run_on(cts_root, dev.path, capsys)
    assert status == 1
    assert "another hardware configuration" in err
    assert f"expected {lp.config_fingerprint(board('icebreaker').config()):#06x}" in err
    assert dev.requests == ["IDENT"]


def test_a_corrupted_reply_is_retried(cts_root, capsys):
    """The first reply's CRC is damaged: the backend drains the port, asks again and gets the
    (wrong) identity; the device saw two good IDENT requests."""
    def answer(cmd, addr, length, payload):
        return "OK", lp.encode_identity(load_config("small"))
    with ScriptedDevice(answer, corrupt_replies=1) as dev:
        status, err = _run_on(cts_root, dev.path, capsys)
    assert status == 1
    assert "retrying IDENT (a reply to IDENT with a bad CRC)" in err
    assert "another hardware configuration" in err
    assert dev.requests == ["IDENT", "IDENT"]


def test_a_silent_device_times_out(cts_root, capsys):
    """A device that reads every frame and never answers (a port with something else on it): the
    backend gives up after its retries with an error naming the request, in bounded time."""
    with ScriptedDevice(lambda *request: None) as dev:
        t0 = time.monotonic()
        status, err = _run_on(cts_root, dev.path, capsys)
        took = time.monotonic() - t0
    assert status == 1
    assert "The board link failed on IDENT after 4 attempts (no reply to IDENT)" in err
    assert dev.requests == ["IDENT"] * 4
    assert took < 30


@pytest.mark.parametrize("code", ["BUSY", "BAD_COMMAND"])
def test_a_refused_identity_request(cts_root, capsys, code):
    with ScriptedDevice(lambda *request: (code, b"")) as dev:
        status, err = _run_on(cts_root, dev.path, capsys)
    assert status == 1
    assert f"The board answered IDENT with {code}." in err
    assert dev.requests == ["IDENT"]
