"""Lowering of quantized NNAPI operations to accelerator instructions, and their tiling.

Every accelerated operation reads its input tensors from external memory and writes its outputs
back (NHWC, one byte per element); across operations the compiler fuses only a following clamp
(RELU / RELU1 / RELU6) into its producer's bounds, a residual ADD into the output tiles of the
convolution that computes one of its operands (``LowerContext.residual``), and hands a few
passes' outputs to the next pass in a scratchpad. An operation becomes one or more *passes* (a pass = a layer of
the compiler's :class:`~nnaccel.compiler.emit.ProgramBuilder`: its weights and parameters stay resident in
the scratchpads) of *stages* (one spatial tile each, double-buffered).

The arithmetic constants come from the golden model's own helpers (``conv_multipliers``,
``activation_range_quantized``, ``add_sub_real_multipliers``, ``quantize_multiplier``), and the
lookup tables of the int8 non-linearities are the golden kernel evaluated on all 256 input bytes,
so accelerated results are bit-exact with the golden model by construction of the constants.

Families, one module each (:data:`LOWERINGS` maps an operation name to its :class:`Lowering`):

* **conv** (:mod:`.conv`, :mod:`.pointwise`) — CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, FULLY_CONNECTED: one general
  convolution over an *effective* dense filter ``[fh, fw, C, O]`` whose unconnected entries equal
  the filter zero point (depthwise / grouped filters are block diagonal; all-zero weight tiles
  are skipped). Per stage (an output tile of ``toh x tow`` pixels): for each output-channel block,
  one GEMM per (filter tap, input-channel block) streams the whole tile through the array
  (strided ACT addressing does the im2col), then a REQ requantizes the block into ACT. A filter or
  bias that is not a constant arrives through DMA at run time (:mod:`.dynamic`).
* **pool** (:mod:`.pool`) — AVERAGE_POOL_2D (SUMW per tap + DIV per region of equal window count), MAX_POOL_2D
  (MAX per tap, padding filled with the type minimum), a TFLite model's MEAN over height and width
  (SUMW per tap + one REQ with LiteRT's rescaling; channel blocks in groups where a tile of all
  does not fit).
* **eltwise** (:mod:`.eltwise`) — ADD, SUB, MUL (ADDQ / SUBQ / MULQ), with one-element and
  trailing-dimension broadcasting.
* **lut** (:mod:`.lut`) — RELU, RELU1, RELU6, LOGISTIC, TANH, HARD_SWISH: one LUT instruction per line.
* **alias** (:mod:`.alias`) — RESHAPE, SQUEEZE, EXPAND_DIMS: no instructions; the output shares the
  input's external-memory bytes.
* **DMA** — CONCATENATION (:mod:`.concat`), TRANSPOSE (:mod:`.transpose`), PAD / PAD_V2
  (:mod:`.pad`); **matmul** (:mod:`.matmul`) — BATCH_MATMUL.

Shared pieces: :mod:`.base` (the :class:`Lowering` interface, context, constant image, limits),
:mod:`.dma` (strided copies, padded boxes), :mod:`.lines` (line-wise vector passes),
:mod:`.layout` (NCHW operands). The compiler drives every lowering through the interface only.
"""


from __future__ import annotations

from types import MappingProxyType

from nnaccel import registry

from ..emit import Ins
from .alias import AliasLowering
from .base import CannotLower, ConstImage, LowerContext, Lowering, tighten
from .concat import ConcatLowering
from .conv import ConvLowering
from .depthwise import hand_over_to_pointwise
from .eltwise import EltwiseLowering
from .lut import LutLowering, relu_range
from .matmul import BatchMatmulLowering
from .pad import PadLowering
from .pointwise import hand_over, hoist_prefetch
from .pool import MeanLowering, PoolLowering
from .transpose import TransposeLowering

#: Operation name -> its lowering; every other operation runs on the host. Read-only.
LOWERINGS = MappingProxyType({
    **{k: ConvLowering(k) for k in ("CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D", "FULLY_CONNECTED")},
    **{k: PoolLowering(k) for k in ("AVERAGE_POOL_2D", "MAX_POOL_2D")},
    "MEAN": MeanLowering("MEAN"),
    **{k: EltwiseLowering(k) for k in ("ADD", "SUB", "MUL")},
    **{k: LutLowering(k) for k in ("RELU", "RELU1", "RELU6", "LOGISTIC", "TANH", "HARD_SWISH")},
    **{k: AliasLowering() for k in ("RESHAPE", "SQUEEZE", "EXPAND_DIMS")},
    "CONCATENATION": ConcatLowering(),
    "BATCH_MATMUL": BatchMatmulLowering(),
    "TRANSPOSE": TransposeLowering(),
    "PAD": PadLowering("PAD"),
    "PAD_V2": PadLowering("PAD_V2"),
})

_unknown = sorted(set(LOWERINGS) - set(registry.OPS))
if _unknown:
    raise RuntimeError(f"Lowerings for operations the registry does not know: {', '.join(_unknown)}.")

#: What an operation fused into its producer's clamp becomes: a no-op on the producer's bytes.
FUSED = AliasLowering()


def lowering_for(op_type: str) -> Lowering | None:
    """The lowering of an operation type, or ``None`` (the operation runs on the host)."""
    return LOWERINGS.get(op_type)


__all__ = ["FUSED", "LOWERINGS", "CannotLower", "ConstImage", "Ins", "LowerContext", "Lowering", "hand_over", "hand_over_to_pointwise",
           "hoist_prefetch",
           "lowering_for", "relu_range", "tighten"]
