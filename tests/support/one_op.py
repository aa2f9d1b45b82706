"""One-operation models for the RTL tests and benchmarks: built with :class:`nnaccel.model.ModelBuilder`,
compiled by the compiler (the one lowering), run by the firmware runtime on the ISA simulator and
the Verilator RTL."""

import numpy as np
from nnaccel.compiler import compile_model
from nnaccel.firmware.runtime import Runtime
from nnaccel.sim.isasim import find_conflicts

from nnaccel.golden.interpreter import run_model
from nnaccel.isa import bytes_to_words, decode
from nnaccel.model import ModelBuilder
from nnaccel.model import OperandType as T

QT = {np.uint8: T.TENSOR_QUANT8_ASYMM, np.int8: T.TENSOR_QUANT8_ASYMM_SIGNED}


def isa_checked(model, inputs: list, preset, op: str | None = None):
    """Compiles ``model`` for ``preset`` and runs it on the ISA simulator; asserts that it runs on
    the accelerator (as the one operation ``op``, or any one operation when None), bit-exact with
    the golden model, with no conflicts under the exact schedule (``find_conflicts``). Returns
    ``(package, report, decoded program of every segment)``."""
    pkg = compile_model(model, preset)
    types = [o["type"] for o in pkg.manifest["accelerator_ops"]]
    assert (types == [op] if op else len(types) == 1), pkg.manifest["host_ops"]
    outs, report = Runtime(pkg).run(inputs, "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, inputs)[0])
    program = []
    for seg in pkg.manifest["segments"]:
        words = bytes_to_words(pkg.segment_words(seg))
        assert find_conflicts(words, pkg.config()) == []
        program += [decode(w) for w in words]
    return pkg, report, program


def rand(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, shape).astype(dtype)


def one_op_model(op: str, inputs, in_q, out_shape, out_q, dtype, consts=(), scalars=()):
    """A model of one NNAPI operation ``op``: ``inputs`` (arrays, the model's inputs) quantized as
    ``in_q`` ((scale, zero point) each), then ``consts`` ((type, value, keywords) each) and INT32
    ``scalars`` as its further operands, one output of ``out_shape`` quantized as ``out_q``."""
    mb = ModelBuilder(op.lower())
    qt = QT[np.dtype(dtype).type]
    ids = [mb.add_operand(qt, x.shape, *q) for x, q in zip(inputs, in_q)]
    args = list(ids)
    for kind, value, kw in consts:
        args.append(mb.add_constant(kind, value, **kw))
    args += [mb.add_constant(T.INT32, v) for v in scalars]
    o = mb.add_operand(qt, list(out_shape), *out_q)
    mb.add_operation(op, args, [o])
    mb.identify_inputs_and_outputs(ids, [o])
    return mb.finish()


def filter_consts(dtype, w, wq, bias, xq):
    """The filter and bias operands of a convolution / FULLY_CONNECTED for :func:`one_op_model`."""
    return [(QT[np.dtype(dtype).type], w, {"scale": wq[0], "zero_point": wq[1]}),
            (T.TENSOR_INT32, bias, {"scale": xq[0] * wq[0]})]


def isa_and_rtl(model, config, inputs):
    """Compiles ``model`` for ``config`` and runs it on the ISA simulator and on the RTL: asserts
    that every operation runs on the accelerator, that the RTL's outputs equal the ISA simulator's
    and the golden model's bit for bit, and that every segment's counters are equal (the cycle
    count included, tolerance 0). Returns ``(package, outputs, isa_report, rtl_report)``."""
    pkg = compile_model(model, config)
    assert not pkg.manifest["host_ops"], f"on the host: {pkg.manifest['host_ops']}"
    rt = Runtime(pkg)
    out_isa, rep_isa = rt.run(list(inputs), "isa", check=True)
    out_rtl, rep_rtl = rt.run(list(inputs), "rtl")
    for k, (a, b, g) in enumerate(zip(out_isa, out_rtl, run_model(model, list(inputs)))):
        np.testing.assert_array_equal(b, a, err_msg=f"output {k}: RTL vs ISA simulator")
        np.testing.assert_array_equal(b, g, err_msg=f"output {k}: RTL vs golden")
    assert len(rep_rtl["segments"]) == len(rep_isa["segments"]) >= 1
    for si, sr in zip(rep_isa["segments"], rep_rtl["segments"]):
        assert sr["counters"] == si["counters"], f"segment {si['index']}: counters differ"
    return pkg, out_rtl, rep_isa, rep_rtl


def segment_words(pkg) -> list[int]:
    """The instruction words of a package's one accelerator segment."""
    from nnaccel.isa import bytes_to_words
    (seg,) = pkg.manifest["segments"]
    return bytes_to_words(pkg.segment_words(seg))


def isa_backend_on(cfg):
    """A runtime backend (``Runtime.run(inputs, backend)``) that runs each segment's words on the
    ISA simulator of ``cfg`` instead of the package's configuration: the same program on another
    machine (e.g. the in-order and the queued one)."""
    from nnaccel.sim.isasim import IsaSim

    def run(_cfg, program, memory, progress=None, max_cycles=None):
        sim = IsaSim(cfg, mem_size=memory.size)
        sim.mem[:] = memory
        res = sim.run(program, progress, max_cycles)
        return sim.mem, dict(res.counters, run_cycles=res.cycles), res.schedule
    return run
