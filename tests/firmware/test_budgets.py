"""Backends never hang: every accelerator segment runs under a cycle budget that ends it with an
error naming the segment, faults name their segment, and WHILE loops keep their timeout on every
backend (they run on the host, on the golden kernels)."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.reference_models import REFERENCE_MODELS
from nnaccel.firmware.runtime import Runtime

from nnaccel.cli import main
from nnaccel.errors import BudgetError
from nnaccel.formats import run_inputs
from nnaccel.isa import AcceleratorFault


def _mlp_package():
    model = REFERENCE_MODELS["mlp"]()
    return model, compile_model(model, "small")


def test_isa_segment_over_its_budget_is_named():
    model, pkg = _mlp_package()
    inputs, _ = run_inputs(model)
    _, report = Runtime(pkg).run(inputs, "isa")
    cycles = report["segments"][0]["cycles"]
    Runtime(pkg, max_cycles=cycles).run(inputs, "isa")  # exactly the run's length: fine
    with pytest.raises(BudgetError, match=rf"^The accelerator segment 0 \(operations 0\.\.3\) on the isa "
                                          rf"backend stopped: the program takes {cycles} cycles, more than "
                                          rf"the budget of {cycles - 1}\.$"):
        Runtime(pkg, max_cycles=cycles - 1).run(inputs, "isa")


def test_budget_on_the_command_line(tmp_path, capsys):
    _, pkg = _mlp_package()
    p = tmp_path / "mlp.nnpkg"
    pkg.save(p)
    code = main(["run", str(p), "--backend", "isa", "--config", "small", "--max-cycles", "5"])
    err = capsys.readouterr().err
    assert code == 1
    assert re.search(r"nnaccel: error: The accelerator segment 0 .* stopped: the program takes \d+ cycles, "
                     r"more than the budget of 5\.$", err.strip().splitlines()[-1]), err
    with pytest.raises(SystemExit):
        main(["run", str(p), "--max-cycles", "0"])


def test_fault_names_its_segment():
    model, pkg = _mlp_package()
    program = bytearray(pkg.program)
    program[0:16] = bytes(16)  # opcode 0: no instruction
    bad = dataclasses.replace(pkg, program=bytes(program))
    with pytest.raises(AcceleratorFault, match=r"ILLEGAL_OPCODE .* at instruction 0: the accelerator segment 0 "
                                               r"\(operations 0\.\.3\) on the isa backend stopped: "):
        Runtime(bad).run(run_inputs(model)[0], "isa")


BOARD_SIM = pytest.param("board-sim", marks=[pytest.mark.slow, pytest.mark.rtl])  # builds the SoC in Verilator


@pytest.mark.parametrize("backend", ["golden", "isa", "rtl", BOARD_SIM])
def test_while_loop_keeps_its_timeout_on_every_backend(cts_root, capsys, backend):
    path = cts_root / "V1_3" / "while_infinite_loop.json.gz"
    where = ["--board", "icebreaker"] if backend == "board-sim" else ["--config", "small"]
    code = main(["run", str(path), "--name", "while_infinite_loop", "--backend", backend, *where])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    if backend != "golden":         # the WHILE runs on the host, and the compiler says so first
        err = "\n".join(line for line in err.split("\n") if not line.startswith("board-sim: "))
        host, err = err.split("\n")
        assert host == "nnaccel: operation 0 (WHILE) runs on the host: no accelerator lowering."
    assert re.fullmatch(r"nnaccel: error: Operation 0 \(WHILE\) ran \d+ iterations and exceeded the loop "
                        r"timeout of 2 s\.", err), err


@pytest.mark.slow
@pytest.mark.rtl
def test_rtl_segment_over_its_budget_is_named():
    model, pkg = _mlp_package()
    inputs, _ = run_inputs(model)
    with pytest.raises(BudgetError, match=r"^The accelerator segment 0 \(operations 0\.\.3\) on the rtl "
                                          r"backend stopped: the RTL did not reach FINISH within the budget "
                                          r"of 50 cycles\.$"):
        Runtime(pkg, max_cycles=50).run(inputs, "rtl")
    outs, _ = Runtime(pkg).run(inputs, "rtl")  # the default budget lets a correct run finish
    ref, _ = Runtime(pkg).run(inputs, "isa")
    for a, b in zip(outs, ref):
        np.testing.assert_array_equal(a, b)


@pytest.mark.slow
@pytest.mark.rtl
def test_board_sim_segment_over_its_budget_is_named(tmp_path, capsys):
    """On board-sim (the iCEBreaker's SoC in Verilator, through its UART): a run that ends past the
    budget is measured by its cycles counter; a run still going when the host's wait ends (the
    least wait set to 0 here, so that the 33k-cycle run is still busy at the first STATUS) stops by
    time. Both name the segment."""
    from nnaccel.boards.boardsim import BoardSim
    from nnaccel.boards.catalog import board
    from nnaccel.boards.soc import max_step_cycles
    from nnaccel.firmware.link import LinkClient, SocketTransport, board_backend, cycles_per_byte

    from nnaccel.formats import save_models
    b = board("icebreaker")
    model = REFERENCE_MODELS["mlp"]()
    pkg = compile_model(model, b.config())
    inputs, _ = run_inputs(model)
    isa_cycles = Runtime(pkg).run(inputs, "isa")[1]["segments"][0]["cycles"]
    p = tmp_path / "mlp.json"
    save_models([model], p)
    code = main(["run", str(p), "--backend", "board-sim", "--board", "icebreaker", "--max-cycles", "50"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 1, err
    assert err == (f"nnaccel: error: The accelerator segment 0 (operations 0..3) on the board-sim backend stopped: "
                   f"the program took {isa_cycles} cycles, more than the budget of 50.")
    with BoardSim(b) as sim:
        client = LinkClient(SocketTransport(sim.sock, timeout=30.0))
        backend = board_backend(client, b.mem_bytes, cycles_per_byte(b), max_step_cycles(b.config()),
                                min_wait_s=0)
        with pytest.raises(BudgetError, match=r"^The accelerator segment 0 \(operations 0\.\.3\) on the board-sim "
                                              r"backend stopped: the device did not finish within [\d.]+ s, twice "
                                              r"the budget of 1 cycles at the pace the link measured"):
            Runtime(pkg, max_cycles=1).run(inputs, backend, name="board-sim")
