"""Pieces of VEC test programs shared by the RTL and ISA-simulator tests."""


def load_vec_operands(p, cfg, n, nparams):
    """The operands of a VEC test program: ``n`` ACT lines at line 0 (from 0x0), ``n`` in the other
    ACT bank (from 0x1000: a binary function's ``src2``, the ISA's bank rules), ``n`` ACC lines
    (from 0x2000) and ``nparams`` VEC parameter lines (from 0x4000); a compute NOP passes the
    load queue's token on to the vector queue. Returns the ``src2`` line."""
    C = cfg.cols
    p.load_lines("ACT", 0, 0x0, n, C, C)
    b_line = cfg.bank_lines("ACT")
    p.load_lines("ACT", b_line, 0x1000, n, C, C)
    p.load_lines("ACC", 0, 0x2000, n, 4 * C, C)
    p.load_lines("VEC", 0, 0x4000, nparams, 4 * C, C, push_next=1)
    p.nop("compute", pop_prev=1, push_next=1)
    return b_line
