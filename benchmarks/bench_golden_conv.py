"""Times the golden model on MobileNet-sized quantized convolutions (not a test).

    python benchmarks/bench_golden_conv.py [--repeat N]

CONV_2D: 1x56x56x64 -> 128 channels, 3x3, stride 1, SAME; DEPTHWISE_CONV_2D: 1x56x56x64, 3x3,
multiplier 1, stride 1, SAME. Both quant8 asymmetric, through the golden interpreter (validation
excluded from the timing).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from nnaccel.golden.interpreter import Interpreter
from nnaccel.model import ModelBuilder, OperandType

T = OperandType


def quant_conv_model(depthwise: bool):
    rng = np.random.default_rng(0)
    b = ModelBuilder("bench_depthwise" if depthwise else "bench_conv")
    x = b.add_operand(T.TENSOR_QUANT8_ASYMM, (1, 56, 56, 64), 0.02, 128)
    cout = 64 if depthwise else 128
    wshape = (1, 3, 3, 64) if depthwise else (128, 3, 3, 64)
    w = b.add_constant(T.TENSOR_QUANT8_ASYMM, rng.integers(0, 256, wshape), wshape, 0.01, 120)
    bias = b.add_constant(T.TENSOR_INT32, rng.integers(-1000, 1000, cout), (cout,), 0.02 * 0.01, 0)
    scalars = [1, 1, 1] + ([1] if depthwise else []) + [1]  # SAME, stride w, stride h, (mult), RELU
    ins = [x, w, bias] + [b.add_constant(T.INT32, v) for v in scalars]
    out = b.add_operand(T.TENSOR_QUANT8_ASYMM, (1, 56, 56, cout), 0.05, 0)
    b.add_operation("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", ins, [out])
    b.identify_inputs_and_outputs([x], [out])
    return b.finish(), rng.integers(0, 256, (1, 56, 56, 64)).astype(np.uint8)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    for depthwise in (False, True):
        model, feed = quant_conv_model(depthwise)
        interp = Interpreter(model)
        interp.run([feed])  # warm-up
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            interp.run([feed])
            times.append(time.perf_counter() - t0)
        name = "DEPTHWISE_CONV_2D 1x56x56x64 3x3" if depthwise else "CONV_2D 1x56x56x64->128 3x3"
        print(f"{name:<36} quant8: best {min(times) * 1e3:8.1f} ms, median {np.median(times) * 1e3:8.1f} ms "
              f"({args.repeat} runs)")


if __name__ == "__main__":
    main()
