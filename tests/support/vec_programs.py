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


def add_params(a_q, b_q, out_q, activation: int, signed: bool) -> dict:
    """ADDQ / SUBQ parameters of NNAPI's quantized ADD (``nnaccel.quant``'s multipliers) for a test
    program: ``a_q``, ``b_q``, ``out_q`` are (scale, zero point)."""
    from nnaccel.golden.elementwise import add_sub_real_multipliers
    from nnaccel.quant import activation_range_quantized, quantize_multiplier
    (s1, z1), (s2, z2), (so, zo) = a_q, b_q, out_q
    (m1, e1), (m2, e2), (mo, eo) = (quantize_multiplier(r) for r in add_sub_real_multipliers(s1, s2, so))
    lo, hi = activation_range_quantized(activation, so, zo, *((-128, 127) if signed else (0, 255)))
    return {"z1": z1, "m1": m1, "e1": e1, "z2": z2, "m2": m2, "e2": e2, "mo": mo, "eo": eo, "zo": zo,
            "lo": lo, "hi": hi}


def mul_params(a_q, b_q, out_q, activation: int, signed: bool) -> dict:
    """MULQ parameters of NNAPI's quantized MUL for a test program."""
    from nnaccel.golden.elementwise import mul_real_multiplier
    from nnaccel.quant import activation_range_quantized, quantize_multiplier
    (s1, z1), (s2, z2), (so, zo) = a_q, b_q, out_q
    m, e = quantize_multiplier(mul_real_multiplier(s1, s2, so))
    lo, hi = activation_range_quantized(activation, so, zo, *((-128, 127) if signed else (0, 255)))
    return {"z1": z1, "z2": z2, "m": m, "e": e, "zo": zo, "lo": lo, "hi": hi}
