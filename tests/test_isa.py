"""ISA table, encoder/decoder, assembler/disassembler round trip, generated documentation."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nnaccel.isa import (
    INSTRUCTIONS,
    AcceleratorFault,
    AssemblyError,
    assemble,
    bytes_to_words,
    decode,
    disassemble,
    docgen,
    encode,
    field_layout,
    words_to_bytes,
)
from nnaccel.isa.table import FLAG_NAMES, VEC_FUNCS, WIDTH

ROOT = Path(__file__).resolve().parents[1]


def _legal_values(ins):
    """A strategy of field dicts that decode without fault."""
    fields = {}
    for f in ins.fields:
        if f.enum is not None:
            fields[f.name] = st.integers(0, len(f.enum) - 1)
        elif ins.name == "VEC" and f.name == "func":
            fields[f.name] = st.sampled_from([v.code for v in VEC_FUNCS])
        elif ins.name == "DWCONV" and f.name in ("fh", "fw", "nx", "ny"):  # an empty window faults
            fields[f.name] = st.integers(1, f.max)
        else:
            fields[f.name] = st.integers(0, f.max)
    strategy = st.fixed_dictionaries(fields)
    if ins.name == "DWCONV":  # windows of at most 255 x 255 lines
        strategy = strategy.map(lambda v: {**v, "nx": min(v["nx"], 256 - v["fw"]), "ny": min(v["ny"], 256 - v["fh"])})
    if ins.name == "GEMM":  # K tiles need preload
        strategy = strategy.map(lambda v: {**v, "kt": v["kt"] if v["preload"] else 0})
    return strategy


def _flags_for(queue):
    # written out here (not read from the table) so that the table's channel rules are checked
    chain = ("load", "compute", "vector", "store")
    allowed = [n for n in FLAG_NAMES if queue in chain and
               not (queue == chain[0] and n.endswith("prev")) and
               not (queue == chain[-1] and n.endswith("next"))]
    return st.fixed_dictionaries({n: st.integers(0, 1) for n in allowed})


@pytest.mark.parametrize("ins", INSTRUCTIONS, ids=lambda i: i.name)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_round_trip(ins, data):
    values = data.draw(_legal_values(ins))
    queue = ins.queue if ins.name != "NOP" else ("load", "compute", "vector", "store")[values["queue"]]
    values.update(data.draw(_flags_for(queue)))
    word = encode(ins.name, **values)
    assert 0 <= word < 1 << WIDTH
    d = decode(word)
    assert d.name == ins.name and all(d.fields[k] == v for k, v in values.items())
    text = disassemble([word])
    assert assemble(text) == [word]
    assert bytes_to_words(words_to_bytes([word])) == [word]


def test_layout_is_plain_data():
    lay = field_layout()
    assert lay["GEMM"]["fields"]["opcode"] == (0, 4)
    assert lay["LOAD"]["fields"]["ext_addr"] == (32, 32)
    assert {v["opcode"] for v in lay.values()} == {i.opcode for i in INSTRUCTIONS}


def test_decode_faults():
    with pytest.raises(AcceleratorFault, match="ILLEGAL_OPCODE \\(code 1\\) at instruction 3: opcode 0"):
        decode(0, pc=3)
    with pytest.raises(AcceleratorFault, match="ILLEGAL_OPCODE.*opcode 15 names no instruction"):
        decode(15)
    with pytest.raises(AcceleratorFault, match="ILLEGAL_FIELD.*STORE has reserved bit\\(s\\) 112"):
        decode(encode("STORE") | 1 << 112)
    with pytest.raises(AcceleratorFault, match="ILLEGAL_FIELD.*VEC func 15 is undefined"):
        decode(encode("VEC", func=15))
    with pytest.raises(AcceleratorFault, match="ILLEGAL_FIELD.*DWCONV fw = 0"):
        decode(encode("DWCONV", fh=1, nx=1, ny=1))
    assert decode(encode("NOP", queue=3)).queue == "store"
    assert decode(encode("NOP", queue=2, pop_prev=1, push_next=1)).queue == "vector"
    with pytest.raises(AcceleratorFault, match="ILLEGAL_FIELD.*GEMM kt = 3 needs preload"):
        decode(encode("GEMM", kt=3))
    with pytest.raises(AcceleratorFault, match="LOAD on the load queue cannot use pop_prev"):
        decode(encode("LOAD", pop_prev=1))
    with pytest.raises(AcceleratorFault, match="STORE on the store queue cannot use push_next"):
        decode(encode("STORE", push_next=1))
    with pytest.raises(AcceleratorFault, match="FINISH on the control queue cannot use push_prev"):
        decode(encode("FINISH", push_prev=1))
    e = pytest.raises(AcceleratorFault, decode, 0, 7).value
    assert (e.fault, e.code, e.pc) == ("ILLEGAL_OPCODE", 1, 7)


@pytest.mark.parametrize("text, message", [
    ("JUMP x=1", "Line 1: unknown instruction 'JUMP'"),
    ("GEMM foo=1", "Line 1: GEMM has no field 'foo'"),
    ("GEMM nx=256", "GEMM field nx = 256 does not fit its 8 bits"),
    ("GEMM nx", "field nx needs a value"),
    ("LOAD sp=XYZ", "LOAD field sp = 'XYZ' is not one of ACT, WGT, ACC, VEC"),
    ("VEC func=SQRT", "VEC func 'SQRT' is not one of"),
    ("GEMM nx=abc", "GEMM field nx = 'abc' is not an integer"),
    ("NOP queue=load queue=store", "field queue is given twice"),
    ("NOP\nGEMM opcode=3", "Line 2: GEMM has no field 'opcode'"),
])
def test_assembler_errors(text, message):
    with pytest.raises(AssemblyError, match=message):
        assemble(text)


def test_assembler_syntax():
    words = assemble("""
        # comment
        LOAD sp=act len=4 ext_addr=0x40 x_size=2 y_size=1   ; trailing comment
            3: NOP queue=compute push_prev
        FINISH
    """)
    assert len(words) == 3 and decode(words[1]).push_prev == 1
    with pytest.raises(AssemblyError, match="multiple of 16 bytes"):
        bytes_to_words(b"\0" * 17)


def test_docs_up_to_date():
    path = ROOT / "docs" / "isa.md"
    assert path.exists() and path.read_text() == docgen.render(), (
        f"docs/isa.md is stale; regenerate it with `{docgen.REGENERATE}`")
    acc = (ROOT / "docs" / "accelerator.md").read_text()
    assert docgen.render_cycle_model() in acc, (
        f"the cycle model in docs/accelerator.md is stale; regenerate it with `{docgen.REGENERATE}`")


def test_cli_asm_disasm_run(tmp_path, capsys):
    from nnaccel.cli import main
    src = tmp_path / "p.s"
    src.write_text("LOAD sp=ACT len=4 ext_addr=0 x_size=2 y_size=1 x_stride=4 push_next\n"
                   "GEMM nx=2 ny=1 preload pop_prev push_next\n"
                   "NOP queue=vector pop_prev push_next\n"
                   "STORE sp=ACC len=4 ext_addr=0x100 x_size=2 y_size=1 x_stride=16 pop_prev\nFINISH\n")
    binary = tmp_path / "p.bin"
    assert main(["isa", "asm", str(src), "-o", str(binary)]) == 0
    assert binary.stat().st_size == 5 * 16
    assert main(["isa", "disasm", str(binary)]) == 0
    assert "GEMM accumulate=0 preload=1" in capsys.readouterr().out
    data = tmp_path / "in.bin"
    data.write_bytes(bytes(range(1, 9)))
    out = tmp_path / "out.bin"
    assert main(["isa", "run", str(binary), "--load", f"0={data}", "--dump", f"0x100:32={out}",
                 "--check-races"]) == 0
    assert "cycles" in capsys.readouterr().out and out.stat().st_size == 32
    bad = tmp_path / "bad.s"
    bad.write_text("GEMM acc=300 nx=1 ny=1\nFINISH\n")
    assert main(["isa", "run", str(bad), "--config", "tiny"]) == 2  # the user's program faults: invalid input
    assert "Fault SCRATCHPAD_RANGE (code 3) at instruction 0" in capsys.readouterr().err
    assert main(["isa", "asm", str(tmp_path / "missing.s"), "-o", str(binary)]) == 2


@pytest.mark.parametrize("mul_steps", [1, 2, 4])
def test_vec_batches_cover_the_wait(mul_steps):
    """The pipelined lane's batches (``vector_groups_in_flight``): issuing each batch's heads, then
    its deferred last steps in order, each as early as a one-step-at-a-time lane allows with a
    deferred step ``W`` cycles after its own head, takes ``VecFunc.groups_cycles``; whole batches
    never wait."""
    from nnaccel.hwconfig import PRESETS
    from nnaccel.isa.table import VEC_BY_NAME, batch_wait, vector_groups_in_flight, vector_step_wait

    cfg = PRESETS["small"].replace(vector_mul_steps=mul_steps)
    B, W, M = vector_groups_in_flight(mul_steps, 1), vector_step_wait(1), mul_steps
    assert batch_wait(mul_steps, 1, B) == 0 < batch_wait(mul_steps, 1, B - 1)
    for name in ("ADDQ", "SUBQ", "MULQ"):
        vf = VEC_BY_NAME[name]
        for groups in range(1, 3 * B + 2):
            t = 0
            for b0 in range(0, groups, B):
                batch = range(b0, min(b0 + B, groups))
                head_end = {}
                for g in batch:
                    t += (vf.steps - 1) * M
                    head_end[g] = t
                for g in batch:
                    t = max(t, head_end[g] + W) + M
            assert t == vf.groups_cycles(cfg, groups), (name, groups)
    assert VEC_BY_NAME["ADDQ"].groups_cycles(cfg.replace(vector_pipeline=0, vector_latency=4), 5) == 5 * 3 * M
