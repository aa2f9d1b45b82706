"""Golden kernels: detection and region operations (spec: ../shared/spec/OperationType.aidl).

AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT, DETECTION_POSTPROCESSING, GENERATE_PROPOSALS,
HEATMAP_MAX_KEYPOINT, ROI_ALIGN and ROI_POOLING, following NNAPI's reference CPU kernels
(``nn/common/operations/GenerateProposals.cpp``, ``HeatmapMaxKeypoint.cpp``, ``RoiAlign.cpp``,
``RoiPooling.cpp``) for everything the spec leaves open.

Shared cores
    * box coding: :func:`corners_to_center`, :func:`decode_boxes` (centre/size deltas, optionally
      divided by scale factors), :func:`clip_boxes`; used by AXIS_ALIGNED_BBOX_TRANSFORM,
      GENERATE_PROPOSALS and DETECTION_POSTPROCESSING;
    * NMS: :func:`iou_one_to_many`, :func:`greedy_nms` (hard, linear and gaussian kernels) and
      :func:`multiclass_nms`; used by BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS and
      DETECTION_POSTPROCESSING;
    * regions: :func:`_roi_rules` and :func:`scaled_rois` (roi / batch-index checks and the
      feature-map scaling) for ROI_ALIGN and ROI_POOLING.

Arithmetic
    Every float computation is float32 in the reference's operation order. float16 tensors are
    widened to float32, computed, and rounded to float16 at the end (the reference does the same
    for the box operations and HEATMAP_MAX_KEYPOINT; its ROI_ALIGN / ROI_POOLING templates run in
    ``_Float16`` arithmetic instead, where we keep float32 intermediates). Quantized tensors are
    dequantized with :func:`~nnaccel.golden.common.dequantize_float32` and results requantized with
    :func:`~nnaccel.golden.common.quantize_float32` -- except quantized ROI_ALIGN, which the
    reference computes in integers (written out in :func:`roi_align`) and ROI_POOLING, which takes
    the maximum of the stored values directly.

Scalar types
    With float16 tensors every float scalar input is FLOAT16 (the reference's validation and the
    conformance tests; the spec's text names FLOAT32 for some of them). Quantized box tensors
    (TENSOR_QUANT16_ASYMM, and the TENSOR_QUANT16_SYMM anchors of GENERATE_PROPOSALS) must have
    scale 0.125 and zero point 0 -- also with quant8 signed data, where the spec's text says
    zero point -128, which the unsigned type cannot hold and the reference rejects.

Order
    The NMS outputs depend on the reference's tie-breaking: the first maximum wins, and the in-place
    removal of suppressed candidates (swap with the last pending one) reorders the pending list;
    :func:`greedy_nms` reproduces that order exactly. The reference's final sorts are
    ``std::sort`` (stable for up to 16 elements in libstdc++); we sort stably everywhere.

Rules
    Each op's shape and scalar rules are written once (``_*_rules(s)``) over a :class:`_View`, and
    run twice: statically by the validator (on declared shapes and constant scalars) and at run time
    by the kernel (on the real arrays and values). Data-dependent rules (batch index range, box
    corner order, regions inside the feature map) are run-time errors (``k.fail``).
"""

from __future__ import annotations

import math

import numpy as np

from ..quant import multiply_by_quantized_multiplier, quantize_multiplier, round_half_away
from ..registry import Sig, define
from .common import (
    BOOL,
    F16,
    F32,
    FLOAT16,
    FLOAT32,
    I32,
    INT32,
    Q8A,
    Q8AS,
    Q16A,
    Q16S,
    QUANT8,
    check_same_quant,
    dequantize_float32,
    float_result,
    qrange,
    quantize_float32,
)

#: The fixed quantization of box coordinates (TENSOR_QUANT16_ASYMM / _SYMM): scale 0.125, zero 0.
BOX_SCALE = 0.125

f32 = np.float32


# --------------------------------------------------------------------------------------------
# One view over the static and the run-time operation, so that each rule is written once.


class _View:
    """Shapes, scalars and failures of an operation for the shared rule functions.

    Static (validator): ``dims(i)`` is the declared shape with ``None`` for an unknown dimension
    (0) and ``None`` for an unknown rank; ``scalar(i)`` is ``None`` unless the input is a constant.
    Run time (kernel): the real shapes and values.
    """

    def __init__(self, ctx, static: bool):
        self.ctx, self.static = ctx, static

    def dims(self, i: int):
        if self.static:
            o = self.ctx.inp(i)
            if o.dimensions is None or (len(o.dimensions) == 0 and o.info.is_tensor):
                return None
            return tuple(d if d else None for d in o.dimensions)
        a = self.ctx.inputs[i]
        return None if a is None else tuple(a.shape)

    def dim(self, i: int, axis: int):
        d = self.dims(i)
        return None if d is None or axis >= len(d) else d[axis]

    def scalar(self, i: int):
        return self.ctx.scalar(i)

    def fail(self, i: int, message: str):
        if self.static:
            self.ctx.fail(message, input=i)
        self.ctx.fail(f"input {i} {message}")


def _rank(s: _View, i: int, rank: int, what: str) -> None:
    d = s.dims(i)
    if d is not None and len(d) != rank:
        s.fail(i, f"has rank {len(d)}, but {what} must be a {rank}-D tensor")


def _size(s: _View, i: int, axis: int, want, what: str) -> None:
    """Requires dimension ``axis`` of input ``i`` to be ``want`` (skipped when either is unknown)."""
    got = s.dim(i, axis)
    if got is not None and want is not None and got != want:
        s.fail(i, f"has {got} in dimension {axis}, but {what} is {want}")


def _first_known(s: _View, *refs):
    """The first known size among ``(input, axis)`` pairs, or ``None``."""
    for i, axis in refs:
        d = s.dim(i, axis)
        if d is not None:
            return d
    return None


def _positive(s: _View, i: int, what: str, allow_zero: bool = False) -> None:
    val = s.scalar(i)
    if val is None:
        return
    if not (val >= 0 if allow_zero else val > 0):
        s.fail(i, f"is {val:g}, but {what} must be {'>= 0' if allow_zero else '> 0'}")


def _check_output(v, j: int, want: tuple) -> None:
    """Validator: output ``j``'s declared shape must agree with ``want`` (``None`` = unknown)."""
    d = v.out(j).dimensions
    if d is None or (len(d) == 0 and v.out(j).info.is_tensor):
        return
    if len(d) != len(want):
        v.fail(f"has rank {len(d)}, but the operation produces a {len(want)}-D tensor", output=j)
    for axis, (got, exp) in enumerate(zip(d, want)):
        if got and exp is not None and got != exp:
            v.fail(f"has shape {list(d)}, but the operation produces size {exp} in dimension {axis}",
                   output=j)


def _check_box_quant(v, i: int | None = None, j: int | None = None) -> None:
    """Validator: a quantized box operand must have scale 0.125 and zero point 0."""
    o = v.inp(i) if i is not None else v.out(j)
    if o.type in (Q16A, Q16S) and (o.scale != BOX_SCALE or o.zero_point != 0):
        v.fail(f"has scale {o.scale:g} and zero point {o.zero_point}, but quantized box coordinates "
               f"must have scale 0.125 and zero point 0", input=i, output=j)


def _is_nchw(s: _View, i: int) -> bool | None:
    """The layout flag: True for NCHW, False for NHWC, None when not known statically."""
    val = s.scalar(i)
    return None if val is None else bool(val)


def _hwc_axes(nchw: bool) -> tuple[int, int, int]:
    """The (height, width, channel) axes of a 4-D tensor in the given layout."""
    return (2, 3, 1) if nchw else (1, 2, 3)


# --------------------------------------------------------------------------------------------
# Float conversion (dequantize / widen) and back.


def _as_float32(k, i: int) -> np.ndarray:
    """Input ``i`` as float32: float16 widened, quantized dequantized (``convertQuantToFloat32``)."""
    a, o = k.inputs[i], k.in_ops[i]
    if o.info.is_quantized:
        return dequantize_float32(a, o)
    return np.asarray(a, np.float32)


def _from_float32(x: np.ndarray, k, j: int) -> np.ndarray:
    """A float32 result as output ``j``'s type: float16 / float32 cast, or ``convertFloat32ToQuant``."""
    o = k.out_ops[j]
    if o.info.is_quantized:
        return quantize_float32(x, o)
    return float_result(x, o.type)


def _scalar_f32(k, i: int) -> np.float32:
    """A FLOAT32 / FLOAT16 scalar input as float32 (float16 values widen exactly)."""
    return f32(k.scalar(i))


def _to_nhwc(x: np.ndarray, nchw: bool) -> np.ndarray:
    return np.transpose(x, (0, 2, 3, 1)) if nchw else x


def _from_nhwc(x: np.ndarray, nchw: bool) -> np.ndarray:
    return np.ascontiguousarray(np.transpose(x, (0, 3, 1, 2))) if nchw else x


# --------------------------------------------------------------------------------------------
# Box coding core.


def corners_to_center(boxes: np.ndarray):
    """``[x1, y1, x2, y2]`` -> ``(cx, cy, w, h)`` as the reference: ``w = x2 - x1``,
    ``cx = (x1 + x2) / 2`` (float32)."""
    x1, y1, x2, y2 = (boxes[..., c] for c in range(4))
    return (x1 + x2) / f32(2), (y1 + y2) / f32(2), x2 - x1, y2 - y1


def decode_boxes(cx, cy, w, h, dx, dy, dw, dh, scales=(1.0, 1.0, 1.0, 1.0)):
    """Applies centre/size deltas and returns the corners ``(x1, y1, x2, y2)``, in float32::

        cx' = cx + w * dx / sx          w' = w * exp(dw / sw)
        cy' = cy + h * dy / sy          h' = h * exp(dh / sh)
        x1 = cx' - w' / 2,  x2 = cx' + w' / 2   (same for y)

    With unit scales this is AXIS_ALIGNED_BBOX_TRANSFORM's ``(cx + dx * w, exp(dw) * w)``;
    DETECTION_POSTPROCESSING passes its four scale factors ``(sx, sy, sw, sh)``.
    """
    sx, sy, sw, sh = (f32(v) for v in scales)
    ncx = cx + w * dx / sx
    ncy = cy + h * dy / sy
    half_w = w * np.exp(dw / sw) * f32(0.5)
    half_h = h * np.exp(dh / sh) * f32(0.5)
    return ncx - half_w, ncy - half_h, ncx + half_w, ncy + half_h


def clip_boxes(x1, y1, x2, y2, height, width):
    """Clips corners to ``[0, width]`` / ``[0, height]`` (``min(max(v, 0), limit)``)."""
    zero = f32(0)
    return (np.minimum(np.maximum(x1, zero), width), np.minimum(np.maximum(y1, zero), height),
            np.minimum(np.maximum(x2, zero), width), np.minimum(np.maximum(y2, zero), height))


def _check_box_order(k, boxes: np.ndarray, what: str) -> None:
    """Run time: every box ``[x1, y1, x2, y2]`` must have ``x1 <= x2`` and ``y1 <= y2``."""
    b = boxes.reshape(-1, 4)
    per_row = boxes.shape[-1] // 4 if boxes.ndim == 2 else 1
    bad = np.flatnonzero(~((b[:, 0] <= b[:, 2]) & (b[:, 1] <= b[:, 3])))
    if bad.size:
        r = int(bad[0])
        where = f"{what} {r // per_row} (class {r % per_row})" if per_row > 1 else f"{what} {r}"
        k.fail(f"{where} is {b[r].tolist()}, but a box [x1, y1, x2, y2] must have x1 <= x2 and "
               f"y1 <= y2")


def _check_batch_index(k, batches: np.ndarray, num_batches: int, what: str) -> None:
    """Run time: every batch index must be in ``[0, num_batches)``."""
    bad = np.flatnonzero((batches < 0) | (batches >= num_batches))
    if bad.size:
        r = int(bad[0])
        k.fail(f"{what} {r} has batch index {int(batches[r])}, outside [0, {num_batches})")


def _batch_runs(k, batches: np.ndarray) -> list[tuple[int, int, int]]:
    """``(batch_id, start, stop)`` of the runs of equal batch indices; the spec requires boxes of
    the same batch to be grouped together (run time error otherwise) and indices to be >= 0."""
    if batches.size == 0:
        return []
    if (batches < 0).any():
        r = int(np.flatnonzero(batches < 0)[0])
        k.fail(f"box {r} has batch index {int(batches[r])}, but batch indices must be >= 0")
    starts = np.flatnonzero(np.r_[True, batches[1:] != batches[:-1]])
    stops = np.r_[starts[1:], batches.size]
    ids = batches[starts]
    if len(set(ids.tolist())) != len(ids):
        dup = next(int(b) for b in ids if (ids == b).sum() > 1)
        k.fail(f"the boxes of batch {dup} are not grouped together, as the spec requires")
    return [(int(b), int(a), int(z)) for b, a, z in zip(ids, starts, stops)]


# --------------------------------------------------------------------------------------------
# NMS core.


def iou_one_to_many(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Intersection over union of ``box`` with each row of ``boxes`` (float32, the reference's
    ``getIoUAxisAligned``)::

        inter = max(min(x2) - max(x1), 0) * max(min(y2) - max(y1), 0)
        iou = inter / (area(boxes) + area(box) - inter)
    """
    area1 = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    area2 = (box[2] - box[0]) * (box[3] - box[1])
    w = np.maximum(np.minimum(boxes[:, 2], box[2]) - np.maximum(boxes[:, 0], box[0]), f32(0))
    h = np.maximum(np.minimum(boxes[:, 3], box[3]) - np.maximum(boxes[:, 1], box[1]), f32(0))
    inter = w * h
    with np.errstate(divide="ignore", invalid="ignore"):
        return inter / (area1 + area2 - inter)


def _compact(pending: np.ndarray, drop: np.ndarray) -> np.ndarray:
    """The pending list after the reference's in-place removal: walking forward, a dropped entry is
    swapped with the last pending one, so kept entries stay in place and the holes among the first
    ``kept`` positions are filled by the kept entries beyond, last one first."""
    keep = ~drop
    n_keep = int(keep.sum())
    front = pending[:n_keep].copy()
    holes = np.flatnonzero(drop[:n_keep])
    if holes.size:
        tail = pending[n_keep:][keep[n_keep:]][::-1]
        front[holes] = tail
    return front


NMS_KERNELS = {0: "hard", 1: "linear", 2: "gaussian"}


def soft_nms_factor(kind: int, iou: np.ndarray, iou_threshold, sigma) -> np.ndarray:
    """The score factor of an NMS kernel (float32)::

        hard:     1 if iou < threshold else 0
        linear:   1 if iou < threshold else 1 - iou
        gaussian: exp(-iou * iou / sigma)
    """
    one = f32(1)
    if kind == 0:
        return np.where(iou < iou_threshold, one, f32(0)).astype(np.float32)
    if kind == 1:
        return np.where(iou < iou_threshold, one, one - iou).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.exp(f32(-1) * iou * iou / f32(sigma)).astype(np.float32)


def greedy_nms(scores: np.ndarray, boxes: np.ndarray, candidates, max_out: int, *,
               iou_threshold=None, soft=None) -> np.ndarray:
    """Greedy NMS over ``candidates`` (indices into ``scores`` and the rows of ``boxes``).

    Repeatedly selects the pending candidate with the highest score (the first one on ties) until
    none is pending or ``max_out`` are selected (``max_out < 0``: no limit). Then, against the
    selected box, every other pending candidate is either

    * hard (``iou_threshold`` given): dropped when ``iou >= iou_threshold``, or
    * soft (``soft=(kind, iou_threshold, sigma, score_threshold)``): its score (in ``scores``, which
      is updated in place, float32) multiplied by :func:`soft_nms_factor` and dropped when the new
      score is below ``score_threshold``.

    The pending order after each round is the reference's (:func:`_compact`), which decides ties.
    Returns the selected indices in selection order.
    """
    pending = np.asarray(candidates, np.int64).copy()
    limit = pending.size if max_out < 0 else max_out
    selected: list[int] = []
    while pending.size and len(selected) < limit:
        j = int(np.argmax(scores[pending]))
        pending[0], pending[j] = pending[j], pending[0]
        best, rest = pending[0], pending[1:]
        iou = iou_one_to_many(boxes[best], boxes[rest])
        if soft is None:
            drop = iou >= iou_threshold
        else:
            kind, thr, sigma, score_threshold = soft
            scores[rest] = scores[rest] * soft_nms_factor(kind, iou, thr, sigma)
            drop = scores[rest] < score_threshold
        selected.append(int(best))
        pending = _compact(rest, drop)
    return np.asarray(selected, np.int64)


def _sort_desc(indices: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """``indices`` stably sorted by descending ``scores[indices]``."""
    return indices[np.argsort(-scores[indices], kind="stable")]


def multiclass_nms(scores: np.ndarray, boxes: np.ndarray, score_threshold, max_per_class: int,
                   max_total: int, **nms) -> np.ndarray:
    """Per-class NMS of the reference (``hardNmsMultiClass`` / ``softNmsMultiClass``).

    ``scores`` is ``[n, classes]`` flattened (updated in place by soft NMS); ``boxes`` has one row
    per flat index. For each class ``c >= 1`` (class 0 is the background), the boxes with
    ``score > score_threshold`` go through :func:`greedy_nms` (at most ``max_per_class``); all
    selections are then stably sorted by descending score and cut to ``max_total`` (``< 0``: no cut).
    """
    n_classes = scores.shape[1]
    flat = scores.reshape(-1)
    picked = [np.zeros(0, np.int64)]
    for c in range(1, n_classes):
        cand = np.flatnonzero(scores[:, c] > score_threshold) * n_classes + c
        picked.append(greedy_nms(flat, boxes, cand, max_per_class, **nms))
    sel = _sort_desc(np.concatenate(picked), flat)
    return sel if max_total < 0 else sel[:max_total]


# --------------------------------------------------------------------------------------------
# AXIS_ALIGNED_BBOX_TRANSFORM


def _bbox_transform_rules(s: _View) -> None:
    """Shapes: rois [num_rois, 4], deltas [num_rois, 4 * num_classes] (num_classes > 0),
    batches [num_rois], image info [batches, 2] (batches > 0)."""
    _rank(s, 0, 2, "the boxes")
    _rank(s, 1, 2, "the deltas")
    _rank(s, 2, 1, "the batch indices")
    _rank(s, 3, 2, "the image info")
    _size(s, 0, 1, 4, "the box length [x1, y1, x2, y2]")
    n = _first_known(s, (0, 0), (1, 0), (2, 0))
    _size(s, 1, 0, n, "the number of boxes")
    _size(s, 2, 0, n, "the number of boxes")
    d = s.dim(1, 1)
    if d is not None and (d == 0 or d % 4):
        s.fail(1, f"has {d} values per box, but the deltas must hold 4 per class (a positive "
                  f"multiple of 4)")
    if s.dim(3, 0) == 0:
        s.fail(3, "has 0 batches, but the image info must describe at least one image")
    _size(s, 3, 1, 2, "the image info length [height, width]")


def validate_bbox_transform(v) -> None:
    s = _View(v, True)
    _bbox_transform_rules(s)
    for i in (0, 3):
        _check_box_quant(v, i)
    _check_box_quant(v, j=0)
    _check_output(v, 0, (s.dim(1, 0), s.dim(1, 1)))


def bbox_transform_float(k, rois, deltas, batches, info) -> np.ndarray:
    """The float32 core of AXIS_ALIGNED_BBOX_TRANSFORM (also GENERATE_PROPOSALS' first step):
    each box is decoded with each class's deltas (:func:`decode_boxes`) and clipped to its image
    (:func:`clip_boxes`). Returns ``[num_rois, num_classes, 4]``."""
    _check_batch_index(k, batches, info.shape[0], "box")
    _check_box_order(k, rois, "box")
    cx, cy, w, h = (c[:, None] for c in corners_to_center(rois))
    d = deltas.reshape(rois.shape[0], deltas.shape[-1] // 4, 4)
    corners = decode_boxes(cx, cy, w, h, d[..., 0], d[..., 1], d[..., 2], d[..., 3])
    img = info[batches]
    clipped = clip_boxes(*corners, img[:, 0:1], img[:, 1:2])
    return np.stack(clipped, axis=-1).astype(np.float32)


@define("AXIS_ALIGNED_BBOX_TRANSFORM", [
    Sig(("F", "F", I32, "F"), ("F",), types={"F": (F32, F16)}),
    Sig((Q16A, Q8A, I32, Q16A), (Q16A,)),
    Sig((Q16A, Q8AS, I32, Q16A), (Q16A,), since="V1_3"),
], validate_bbox_transform)
def axis_aligned_bbox_transform(k):
    """AXIS_ALIGNED_BBOX_TRANSFORM: refines boxes ``[x1, y1, x2, y2]`` with per-class deltas
    ``[dx, dy, dw, dh]`` and clips them to the image ``[height, width]`` of their batch::

        w = x2 - x1, cx = (x1 + x2) / 2;  cx' = cx + dx * w, w' = exp(dw) * w   (same for y / h)
        out = clip([cx' - w'/2, cy' - h'/2, cx' + w'/2, cy' + h'/2], [0, width] x [0, height])

    float32 throughout; float16 is widened and the result rounded to float16. Quantized (boxes and
    image info TENSOR_QUANT16_ASYMM with scale 0.125, deltas quant8): dequantized to float32,
    computed, and requantized to the output (``round(x / 0.125)``), as the reference does.
    Run-time errors: a batch index outside ``[0, batches)``, a box with ``x1 > x2`` or ``y1 > y2``.
    """
    _bbox_transform_rules(_View(k, False))
    rois, deltas, info = _as_float32(k, 0), _as_float32(k, 1), _as_float32(k, 3)
    batches = k.inputs[2].astype(np.int64)
    out = bbox_transform_float(k, rois, deltas, batches, info)
    return [_from_float32(out.reshape(deltas.shape), k, 0)]


# --------------------------------------------------------------------------------------------
# BOX_WITH_NMS_LIMIT


def _box_nms_rules(s: _View) -> None:
    """Shapes: scores [num_rois, num_classes] (num_classes > 1), boxes [num_rois, 4 * num_classes],
    batches [num_rois]; the NMS kernel is 0, 1 or 2."""
    _rank(s, 0, 2, "the scores")
    _rank(s, 1, 2, "the boxes")
    _rank(s, 2, 1, "the batch indices")
    n = _first_known(s, (0, 0), (1, 0), (2, 0))
    _size(s, 1, 0, n, "the number of boxes")
    _size(s, 2, 0, n, "the number of boxes")
    c = s.dim(0, 1)
    if c is not None and c < 2:
        s.fail(0, f"has {c} classes, but the scores need at least 2 (class 0 is the background)")
    _size(s, 1, 1, None if c is None else 4 * c, "4 x the number of classes")
    kind = s.scalar(5)
    if kind is not None and kind not in NMS_KERNELS:
        s.fail(5, f"is {kind}, but the NMS kernel must be 0 (hard), 1 (linear) or 2 (gaussian)")


def validate_box_with_nms_limit(v) -> None:
    _box_nms_rules(_View(v, True))
    _check_box_quant(v, 1)
    _check_box_quant(v, j=1)
    if v.inp(0).type in QUANT8:
        check_same_quant(v, 0, v.out(0), "output 0")


@define("BOX_WITH_NMS_LIMIT", [
    Sig((F32, F32, I32, FLOAT32, INT32, INT32, FLOAT32, FLOAT32, FLOAT32), (F32, F32, I32, I32)),
    Sig((F16, F16, I32, FLOAT16, INT32, INT32, FLOAT16, FLOAT16, FLOAT16), (F16, F16, I32, I32)),
    Sig((Q8A, Q16A, I32, FLOAT32, INT32, INT32, FLOAT32, FLOAT32, FLOAT32), (Q8A, Q16A, I32, I32)),
    Sig((Q8AS, Q16A, I32, FLOAT32, INT32, INT32, FLOAT32, FLOAT32, FLOAT32), (Q8AS, Q16A, I32, I32),
        since="V1_3"),
], validate_box_with_nms_limit)
def box_with_nms_limit(k):
    """BOX_WITH_NMS_LIMIT: per batch (a run of equal batch indices), per class ``c >= 1``:

    1. candidates: boxes with ``score > score_threshold`` (input 3);
    2. soft NMS (:func:`greedy_nms`) with the kernel of input 5 (hard / linear / gaussian, IoU
       threshold input 6, sigma input 7): each round selects the best pending box, multiplies the
       others' scores by the kernel factor and drops those below ``nms_score_threshold`` (input 8);
       at most ``max_num_detections`` (input 4, negative = unlimited) per class;
    3. all selections of the batch are stably sorted by descending (updated) score, cut to
       ``max_num_detections``, then stably sorted by class (ascending) and score (descending).

    Outputs, grouped by batch: the updated scores, the boxes (copied unchanged from the input), the
    classes and the batch indices. Computed in float32 (float16 widened; quantized scores and boxes
    dequantized, output scores requantized with the output's scale / zero point, output boxes the
    input's stored values). Run-time errors: boxes with ``x1 > x2`` or ``y1 > y2``, negative or
    ungrouped batch indices.
    """
    _box_nms_rules(_View(k, False))
    scores, rois = _as_float32(k, 0), _as_float32(k, 1)
    batches = k.inputs[2].astype(np.int64)
    n_classes = scores.shape[1]
    score_thr = _scalar_f32(k, 3)
    max_det = int(k.scalar(4))
    kind = int(k.scalar(5))
    soft = (kind, _scalar_f32(k, 6), _scalar_f32(k, 7), _scalar_f32(k, 8))
    _check_box_order(k, rois, "box")
    flat_boxes = rois.reshape(-1, 4)
    picks, out_batch = [], []
    for b, start, stop in _batch_runs(k, batches):
        sc = scores[start:stop].copy()
        sel = multiclass_nms(sc, flat_boxes[start * n_classes:stop * n_classes], score_thr,
                             max_det, max_det, soft=soft)
        flat = sc.reshape(-1)
        sel = sel[np.lexsort((-flat[sel], sel % n_classes))]
        picks.append((sel, flat, start))
        out_batch.append(np.full(sel.size, b, np.int64))
    if picks:
        idx = np.concatenate([sel + start * n_classes for sel, _, start in picks])
        out_scores = np.concatenate([flat[sel] for sel, flat, _ in picks]).astype(np.float32)
        batch_out = np.concatenate(out_batch)
    else:
        idx = np.zeros(0, np.int64)
        out_scores = np.zeros(0, np.float32)
        batch_out = np.zeros(0, np.int64)
    raw_boxes = np.asarray(k.inputs[1]).reshape(-1, 4)[idx]
    return [_from_float32(out_scores, k, 0), raw_boxes, (idx % n_classes).astype(np.int32),
            batch_out.astype(np.int32)]


# --------------------------------------------------------------------------------------------
# GENERATE_PROPOSALS


def _generate_proposals_rules(s: _View) -> None:
    """Shapes (NHWC / NCHW by input 10): scores [batches, h, w, anchors], deltas
    [batches, h, w, 4 * anchors], anchors [anchors, 4], image info [batches, 2]; strides > 0."""
    nchw = _is_nchw(s, 10)
    for i, what in ((0, "the scores"), (1, "the deltas")):
        _rank(s, i, 4, what)
    _rank(s, 2, 2, "the anchors")
    _rank(s, 3, 2, "the image info")
    batches = _first_known(s, (0, 0), (1, 0), (3, 0))
    _size(s, 1, 0, batches, "the number of batches")
    _size(s, 3, 0, batches, "the number of batches")
    if nchw is not None:
        ax_h, ax_w, ax_c = _hwc_axes(nchw)
        _size(s, 1, ax_h, s.dim(0, ax_h), "the scores' height")
        _size(s, 1, ax_w, s.dim(0, ax_w), "the scores' width")
        anchors = _first_known(s, (0, ax_c), (2, 0))
        _size(s, 2, 0, anchors, "the number of anchors")
        _size(s, 1, ax_c, None if anchors is None else 4 * anchors, "4 x the number of anchors")
    _size(s, 2, 1, 4, "the anchor length [x1, y1, x2, y2]")
    _size(s, 3, 1, 2, "the image info length [height, width]")
    _positive(s, 4, "the height stride")
    _positive(s, 5, "the width stride")


def validate_generate_proposals(v) -> None:
    _generate_proposals_rules(_View(v, True))
    for i in (2, 3):
        _check_box_quant(v, i)
    _check_box_quant(v, j=1)
    if v.inp(0).type in QUANT8:
        check_same_quant(v, 0, v.out(0), "output 0")


_GP_SCALARS = (FLOAT32, FLOAT32, INT32, INT32, FLOAT32, FLOAT32, BOOL)
_GP_SCALARS16 = (FLOAT16, FLOAT16, INT32, INT32, FLOAT16, FLOAT16, BOOL)


@define("GENERATE_PROPOSALS", [
    Sig((F32, F32, F32, F32, *_GP_SCALARS), (F32, F32, I32)),
    Sig((F16, F16, F16, F16, *_GP_SCALARS16), (F16, F16, I32)),
    Sig((Q8A, Q8A, Q16S, (Q16A, Q16S), *_GP_SCALARS), (Q8A, Q16A, I32)),
    Sig((Q8AS, Q8AS, Q16S, (Q16A, Q16S), *_GP_SCALARS), (Q8AS, Q16A, I32), since="V1_3"),
], validate_generate_proposals)
def generate_proposals(k):
    """GENERATE_PROPOSALS: per batch image,

    1. anchors are placed at every feature-map cell: ``anchor + [w * ws, h * hs, w * ws, h * hs]``
       (``hs``, ``ws`` = strides, inputs 4-5), in order (h, w, anchor);
    2. each is refined with its deltas and clipped to the image (the AXIS_ALIGNED_BBOX_TRANSFORM
       core, :func:`bbox_transform_float`);
    3. if ``0 < pre_nms_top_n < count`` (input 6) only the ``pre_nms_top_n`` best scores are kept
       (stable descending sort);
    4. boxes are kept when ``width > min_size`` and ``height > min_size`` (input 9) and their centre
       ``x1 + width / 2`` / ``y1 + height / 2`` lies before the image width / height;
    5. hard NMS (input 8 the IoU threshold), at most ``post_nms_top_n`` (input 7; non-positive =
       unlimited, as the spec says -- the reference returns no box for exactly 0).

    Outputs: scores, boxes and batch indices of the kept boxes, batch by batch. float32 throughout
    (float16 widened; quantized inputs dequantized, outputs requantized: scores to the output's
    scale / zero point, boxes to scale 0.125). The image info may be TENSOR_QUANT16_ASYMM (the
    reference and the conformance tests) or TENSOR_QUANT16_SYMM (the spec's text).
    """
    s = _View(k, False)
    _generate_proposals_rules(s)
    nchw = _is_nchw(s, 10)
    scores = _to_nhwc(_as_float32(k, 0), nchw)
    deltas = _to_nhwc(_as_float32(k, 1), nchw)
    anchors, info = _as_float32(k, 2), _as_float32(k, 3)
    h_stride, w_stride = _scalar_f32(k, 4), _scalar_f32(k, 5)
    pre_n, post_n = int(k.scalar(6)), int(k.scalar(7))
    iou_thr, min_size = _scalar_f32(k, 8), _scalar_f32(k, 9)
    n_batch, height, width, n_anchor = scores.shape
    hs = (np.arange(height, dtype=np.float32) * h_stride)[:, None, None]
    ws = (np.arange(width, dtype=np.float32) * w_stride)[None, :, None]
    grid = (height, width, n_anchor)
    shifted = np.stack([np.broadcast_to(anchors[:, c] + (ws if c % 2 == 0 else hs), grid)
                        for c in range(4)], axis=-1).astype(np.float32).reshape(-1, 4)
    count = shifted.shape[0]
    out_scores = [np.zeros(0, np.float32)]
    out_boxes = [np.zeros((0, 4), np.float32)]
    out_batch = [np.zeros(0, np.int32)]
    for b in range(n_batch):
        sc = scores[b].reshape(-1)
        boxes = bbox_transform_float(k, shifted, deltas[b].reshape(count, 4),
                                     np.zeros(count, np.int64), info[b:b + 1])[:, 0, :]
        sel = np.arange(count, dtype=np.int64)
        if 0 < pre_n < count:
            sel = _sort_desc(sel, sc)[:pre_n]
        bx = boxes[sel]
        bw, bh = bx[:, 2] - bx[:, 0], bx[:, 3] - bx[:, 1]
        ok = ((bw > min_size) & (bh > min_size) & (bx[:, 0] + bw / f32(2) < info[b, 1])
              & (bx[:, 1] + bh / f32(2) < info[b, 0]))
        sel = greedy_nms(sc, boxes, sel[ok], post_n if post_n > 0 else -1, iou_threshold=iou_thr)
        out_scores.append(sc[sel])
        out_boxes.append(boxes[sel])
        out_batch.append(np.full(sel.size, b, np.int32))
    return [_from_float32(np.concatenate(out_scores), k, 0),
            _from_float32(np.concatenate(out_boxes).reshape(-1, 4), k, 1),
            np.concatenate(out_batch).astype(np.int32)]


# --------------------------------------------------------------------------------------------
# DETECTION_POSTPROCESSING


def _detection_pp_rules(s: _View) -> None:
    """Shapes: scores [batches, anchors, classes] (classes > 1), deltas [batches, anchors, >= 4],
    anchors [anchors, 4]; scales > 0, thresholds >= 0, max detections > 0, and per NMS mode the
    per-class limit (regular) or classes per detection (fast) > 0."""
    _rank(s, 0, 3, "the scores")
    _rank(s, 1, 3, "the deltas")
    _rank(s, 2, 2, "the anchors")
    _size(s, 1, 0, s.dim(0, 0), "the number of batches")
    anchors = _first_known(s, (0, 1), (1, 1), (2, 0))
    _size(s, 1, 1, anchors, "the number of anchors")
    _size(s, 2, 0, anchors, "the number of anchors")
    _size(s, 2, 1, 4, "the anchor length [ctr_y, ctr_x, h, w]")
    c = s.dim(0, 2)
    if c is not None and c < 2:
        s.fail(0, f"has {c} classes, but the scores need at least 2 (class 0 is the background)")
    e = s.dim(1, 2)
    if e is not None and e < 4:
        s.fail(1, f"has a box encoding of length {e}, but it must hold at least the 4 deltas")
    for i, what in ((3, "the y scale"), (4, "the x scale"), (5, "the height scale"),
                    (6, "the width scale")):
        _positive(s, i, what)
    _positive(s, 8, "the maximum number of detections")
    _positive(s, 11, "the score threshold", allow_zero=True)
    _positive(s, 12, "the IoU threshold", allow_zero=True)
    regular = s.scalar(7)
    if regular is True:
        _positive(s, 10, "the maximum number of detections per class (regular NMS)")
    elif regular is False:
        _positive(s, 9, "the maximum number of classes per detection (fast NMS)")


def _detection_pp_out_count(s: _View):
    n, regular, per = s.scalar(8), s.scalar(7), s.scalar(9)
    if n is None or regular is None:
        return None
    if regular:
        return n
    return None if per is None else n * per


def validate_detection_postprocessing(v) -> None:
    s = _View(v, True)
    _detection_pp_rules(s)
    batches, count = s.dim(0, 0), _detection_pp_out_count(s)
    _check_output(v, 0, (batches, count))
    _check_output(v, 1, (batches, count, 4))
    _check_output(v, 2, (batches, count))
    _check_output(v, 3, (batches,))


_DP_SCALARS = (FLOAT32, FLOAT32, FLOAT32, FLOAT32, BOOL, INT32, INT32, INT32, FLOAT32, FLOAT32, BOOL)
_DP_SCALARS16 = (FLOAT16, FLOAT16, FLOAT16, FLOAT16, BOOL, INT32, INT32, INT32, FLOAT16, FLOAT16,
                 BOOL)


@define("DETECTION_POSTPROCESSING", [
    Sig((F32, F32, F32, *_DP_SCALARS), (F32, F32, I32, I32)),
    Sig((F16, F16, F16, *_DP_SCALARS16), (F16, F16, I32, I32)),
], validate_detection_postprocessing)
def detection_postprocessing(k):
    """DETECTION_POSTPROCESSING: decodes each anchor ``[ctr_y, ctr_x, h, w]`` with its deltas
    ``[dy, dx, dh, dw]`` and the scales ``(sy, sx, sh, sw)`` (inputs 3-6)::

        cy = ctr_y + h * dy / sy,  half_h = h * exp(dh / sh) * 0.5   (same for x / w)
        box = [cy - half_h, cx - half_w, cy + half_h, cx + half_w]   ([y1, x1, y2, x2], no clipping)

    then, per batch, with hard NMS (IoU threshold input 12, candidates ``score > threshold``
    input 11, class 0 being the background):

    * regular (input 7 true): :func:`multiclass_nms`, at most input 10 per class, best
      ``max_num_detections`` (input 8) overall;
    * fast: NMS of the anchors on their best non-background score, at most ``max_num_detections``;
      each kept anchor emits its ``min(classes - 1, input 9)`` best classes (stable order).

    Output rows beyond the detections are zero; class labels are ``c - 1`` (``c`` when input 13
    includes the background). float32 throughout, float16 widened and rounded at the end.
    """
    s = _View(k, False)
    _detection_pp_rules(s)
    scores, deltas, anchors = _as_float32(k, 0), _as_float32(k, 1), _as_float32(k, 2)
    sy, sx, sh, sw = (_scalar_f32(k, i) for i in (3, 4, 5, 6))
    regular = bool(k.scalar(7))
    max_det, per_det, per_class = int(k.scalar(8)), int(k.scalar(9)), int(k.scalar(10))
    score_thr, iou_thr = _scalar_f32(k, 11), _scalar_f32(k, 12)
    label_offset = 0 if k.scalar(13) else 1
    n_batch, _, n_classes = scores.shape
    n_out = max_det if regular else max_det * per_det
    out_s = np.zeros((n_batch, n_out), np.float32)
    out_b = np.zeros((n_batch, n_out, 4), np.float32)
    out_c = np.zeros((n_batch, n_out), np.int32)
    out_n = np.zeros(n_batch, np.int32)
    for b in range(n_batch):
        d = deltas[b]
        y1, x1, y2, x2 = decode_boxes(anchors[:, 0], anchors[:, 1], anchors[:, 2], anchors[:, 3],
                                      d[:, 0], d[:, 1], d[:, 2], d[:, 3], (sy, sx, sh, sw))
        boxes = np.stack([y1, x1, y2, x2], axis=-1).astype(np.float32)
        sc = scores[b].copy()
        if regular:
            sel = multiclass_nms(sc, np.repeat(boxes, n_classes, axis=0), score_thr, per_class,
                                 max_det, iou_threshold=iou_thr)
            m = sel.size
            out_s[b, :m] = sc.reshape(-1)[sel]
            out_b[b, :m] = boxes[sel // n_classes]
            out_c[b, :m] = sel % n_classes - label_offset
        else:
            n_cls_out = min(n_classes - 1, per_det)
            best = sc[:, 1:].max(axis=1)
            cand = np.flatnonzero(best > score_thr)
            sel = greedy_nms(best, boxes, cand, max_det, iou_threshold=iou_thr)
            order = np.argsort(-sc[sel, 1:], axis=1, kind="stable")[:, :n_cls_out] + 1
            m = sel.size * n_cls_out
            out_s[b, :m] = np.take_along_axis(sc[sel], order, axis=1).reshape(-1)
            out_b[b, :m] = np.repeat(boxes[sel], n_cls_out, axis=0)
            out_c[b, :m] = order.reshape(-1) - label_offset
        out_n[b] = m
    return [_from_float32(out_s, k, 0), _from_float32(out_b, k, 1), out_c, out_n]


# --------------------------------------------------------------------------------------------
# HEATMAP_MAX_KEYPOINT


def _heatmap_rules(s: _View) -> None:
    """Shapes: heatmaps [boxes, size, size, keypoints] (NCHW: [boxes, keypoints, size, size]) with
    size >= 2, boxes [boxes, 4]."""
    nchw = _is_nchw(s, 2)
    _rank(s, 0, 4, "the heatmaps")
    _rank(s, 1, 2, "the boxes")
    if nchw is not None:
        ax_h, ax_w, _ = _hwc_axes(nchw)
        size = _first_known(s, (0, ax_h), (0, ax_w))
        _size(s, 0, ax_w, size, "the heatmap height (heatmaps must be square)")
        if size is not None and size < 2:
            s.fail(0, f"has heatmaps of size {size}, but the size must be at least 2")
    _size(s, 1, 0, s.dim(0, 0), "the number of heatmaps")
    _size(s, 1, 1, 4, "the box length [x1, y1, x2, y2]")


def validate_heatmap_max_keypoint(v) -> None:
    s = _View(v, True)
    _heatmap_rules(s)
    _check_box_quant(v, 1)
    _check_box_quant(v, j=1)
    nchw = _is_nchw(s, 2)
    if nchw is not None:
        n, kp = s.dim(0, 0), s.dim(0, 1 if nchw else 3)
        _check_output(v, 0, (n, kp))
        _check_output(v, 1, (n, kp, 2))


def _solve_for_delta(g, atol, rtol):
    """The reference's ``solveForDelta`` on 3x3 grids ``g[..., 3, 3]`` (float32): a second-order
    Taylor expansion around the centre, ``b = -gradient``, ``A = Hessian``, ``delta = A^-1 b``
    (kept 0 when ``|det A| < atol + rtol * A00 * A11``), clipped to ``max(|delta|) <= 1.5``, and the
    score ``g11 - b . delta + delta' A delta / 2``. Returns ``(dx, dy, score, solved)``."""
    two, four = f32(2), f32(4)
    b0 = -(g[..., 1, 2] - g[..., 1, 0]) / two
    b1 = -(g[..., 2, 1] - g[..., 0, 1]) / two
    a00 = g[..., 1, 0] - two * g[..., 1, 1] + g[..., 1, 2]
    a01 = (g[..., 2, 2] - g[..., 2, 0] - g[..., 0, 2] + g[..., 0, 0]) / four
    a11 = g[..., 0, 1] - two * g[..., 1, 1] + g[..., 2, 1]
    cross1 = a00 * a11
    det = cross1 - a01 * a01
    solved = ~(np.abs(det) < f32(atol) + f32(rtol) * cross1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        d0 = (a11 * b0 - a01 * b1) / det
        d1 = (a00 * b1 - a01 * b0) / det
        big = np.maximum(np.abs(d0), np.abs(d1))
        clip = (np.abs(d0) > f32(1.5)) | (np.abs(d1) > f32(1.5))
        scale = np.where(clip, f32(1.5) / big, f32(1)).astype(np.float32)
        d0 = np.where(clip, d0 * scale, d0)
        d1 = np.where(clip, d1 * scale, d1)
        score = (g[..., 1, 1] - b0 * d0 - b1 * d1
                 + ((a00 * d0 + a01 * d1) * d0 + (a01 * d0 + a11 * d1) * d1) / two)
    zero = f32(0)
    return (np.where(solved, d0, zero), np.where(solved, d1, zero), score, solved)


@define("HEATMAP_MAX_KEYPOINT", [
    Sig(("F", "F", BOOL), ("F", "F"), types={"F": (F32, F16)}),
    Sig((Q8A, Q16A, BOOL), (Q8A, Q16A)),
    Sig((Q8AS, Q16A, BOOL), (Q8AS, Q16A), since="V1_3"),
], validate_heatmap_max_keypoint)
def heatmap_max_keypoint(k):
    """HEATMAP_MAX_KEYPOINT: for each box and keypoint, the heatmap maximum (first in row-major
    order on ties) is refined with :func:`_solve_for_delta` on its 3x3 neighbourhood (out-of-range
    rows / columns mirrored: -1 -> 1, size -> size - 2), giving the score and::

        x = (max_w + dx + 0.5) / size * (x2 - x1) + x1,   y = (max_h + dy + 0.5) / size * (y2 - y1) + y1

    float32 (the singularity tolerances are 1e-5, or 1e-3 for float16 as in the reference);
    float16 widened and rounded at the end; quantized heatmaps and boxes dequantized and the
    outputs requantized (scores to the output's scale / zero point, keypoints to scale 0.125).
    Run-time error: a box with ``x1 > x2`` or ``y1 > y2``.
    """
    s = _View(k, False)
    _heatmap_rules(s)
    nchw = _is_nchw(s, 2)
    heat = _to_nhwc(_as_float32(k, 0), nchw)
    boxes = _as_float32(k, 1)
    _check_box_order(k, boxes, "box")
    n, size, _, n_kp = heat.shape
    tol = 1e-3 if k.in_ops[0].type is F16 else 1e-5
    flat = np.transpose(heat, (0, 3, 1, 2)).reshape(n, n_kp, size * size)
    idx = np.argmax(flat, axis=2)
    mh, mw = idx // size, idx % size
    offs = np.arange(-1, 2)

    def mirror(v):
        return np.where(v < 0, 1, np.where(v >= size, size - 2, v))

    rows = mirror(mh[..., None] + offs)  # [n, kp, 3]
    cols = mirror(mw[..., None] + offs)
    bi = np.arange(n)[:, None, None, None]
    ki = np.arange(n_kp)[None, :, None, None]
    grid = heat[bi, rows[..., :, None], cols[..., None, :], ki]  # [n, kp, 3, 3]
    dx, dy, refined, solved = _solve_for_delta(grid, tol, tol)
    max_score = np.take_along_axis(flat, idx[..., None], axis=2)[..., 0]
    score = np.where(solved, refined, max_score).astype(np.float32)
    sz = f32(size)
    w_rel = (mw.astype(np.float32) + dx + f32(0.5)) / sz
    h_rel = (mh.astype(np.float32) + dy + f32(0.5)) / sz
    x1, y1 = boxes[:, None, 0], boxes[:, None, 1]
    kx = w_rel * (boxes[:, None, 2] - x1) + x1
    ky = h_rel * (boxes[:, None, 3] - y1) + y1
    keypoints = np.stack([kx, ky], axis=-1).astype(np.float32)
    return [_from_float32(score, k, 0), _from_float32(keypoints, k, 1)]


# --------------------------------------------------------------------------------------------
# ROI_ALIGN and ROI_POOLING: shared roi / batch handling.


def _roi_rules(s: _View, layout: int, strides: tuple[int, int]) -> None:
    """Shapes shared by ROI_ALIGN and ROI_POOLING: a 4-D feature map with non-zero batches, height,
    width and depth; rois [num_rois, 4]; batch indices [num_rois]; output height and width (inputs
    3, 4) > 0; the strides (``strides``) > 0."""
    nchw = _is_nchw(s, layout)
    _rank(s, 0, 4, "the feature map")
    _rank(s, 1, 2, "the regions of interest")
    _rank(s, 2, 1, "the batch indices")
    if not s.static:
        ax_h, ax_w, ax_c = _hwc_axes(nchw)
        for axis, name in ((0, "batches"), (ax_h, "height"), (ax_w, "width"), (ax_c, "channels")):
            if s.dim(0, axis) == 0:
                s.fail(0, f"has 0 {name}, but the feature map must not be empty")
    _size(s, 1, 1, 4, "the region length [x1, y1, x2, y2]")
    _size(s, 2, 0, s.dim(1, 0), "the number of regions")
    _positive(s, 3, "the output height")
    _positive(s, 4, "the output width")
    _positive(s, strides[0], "the height stride")
    _positive(s, strides[1], "the width stride")


def _roi_output_shape(s: _View, layout: int):
    nchw = _is_nchw(s, layout)
    depth = s.dim(0, _hwc_axes(nchw)[2])
    oh, ow = s.scalar(3), s.scalar(4)
    return (s.dim(1, 0), depth, oh, ow) if nchw else (s.dim(1, 0), oh, ow, depth)


def _validate_roi(v, layout: int, strides) -> None:
    s = _View(v, True)
    _roi_rules(s, layout, strides)
    _check_box_quant(v, 1)
    if _is_nchw(s, layout) is not None:
        _check_output(v, 0, _roi_output_shape(s, layout))


def scaled_rois(k, rois: np.ndarray, batches: np.ndarray, fmap_shape, h_stride, w_stride):
    """Checks the regions and maps them onto the feature map (float32)::

        x * (1 / w_stride),  y * (1 / h_stride)

    Run-time errors (as the reference): a batch index outside ``[0, batches)``, a negative
    coordinate, a region reaching beyond the feature map's width / height after scaling, or
    ``x1 > x2`` / ``y1 > y2``. Returns ``[num_rois, 4]`` scaled ``[x1, y1, x2, y2]``.
    """
    n_batch, height, width = fmap_shape[:3]
    _check_batch_index(k, batches, n_batch, "region")
    one = f32(1)
    scale = np.array([one / f32(w_stride), one / f32(h_stride)] * 2, np.float32)
    scaled = (rois * scale).astype(np.float32)
    limit = np.array([width, height, width, height], np.float32)
    bad = np.flatnonzero(~((rois >= 0).all(axis=1) & (scaled <= limit).all(axis=1)))
    if bad.size:
        r = int(bad[0])
        k.fail(f"region {r} is {rois[r].tolist()}, which does not lie inside the {height}x{width} "
               f"feature map after scaling by the strides")
    _check_box_order(k, rois, "region")
    return scaled


def _roi_inputs(k, layout: int, strides):
    """The shared first steps of ROI_ALIGN / ROI_POOLING: rules, NHWC feature map, float32 regions
    (quantized: dequantized with scale 0.125), checked and scaled (:func:`scaled_rois`)."""
    s = _View(k, False)
    _roi_rules(s, layout, strides)
    nchw = _is_nchw(s, layout)
    fmap = _to_nhwc(k.inputs[0], nchw)
    rois = _as_float32(k, 1).reshape(-1, 4)
    batches = k.inputs[2].astype(np.int64)
    scaled = scaled_rois(k, rois, batches, fmap.shape, _scalar_f32(k, strides[0]),
                         _scalar_f32(k, strides[1]))
    return nchw, fmap, batches, scaled, int(k.scalar(3)), int(k.scalar(4))


# --------------------------------------------------------------------------------------------
# ROI_ALIGN


def _roi_align_rules_extra(s: _View) -> None:
    _positive(s, 7, "the height sampling ratio", allow_zero=True)
    _positive(s, 8, "the width sampling ratio", allow_zero=True)


def validate_roi_align(v) -> None:
    _validate_roi(v, 9, (5, 6))
    _roi_align_rules_extra(_View(v, True))


def _align_axis(start, extent, n_out: int, ratio: int, size: int):
    """Sample positions along one axis of one region (float32, the reference's order)::

        extent = max(end - start, 1);  step = extent / n_out
        n = ratio if ratio > 0 else ceil(step);  bin = step / n
        p[o, s] = (step * o + start) + bin / 2 + bin * s

    and their bilinear taps: ``lo = floor(p)``, ``frac = p - lo``, ``hi = lo + 1``, with samples at
    or beyond ``size - 1`` pinned to ``lo = hi = size - 1``, ``frac = 0``.
    Returns ``(n, lo[o, s], hi[o, s], frac[o, s])``.
    """
    step = f32(extent) / f32(n_out)
    n = ratio if ratio > 0 else math.ceil(step)
    bin_ = step / f32(n)
    o = np.arange(n_out, dtype=np.float32)[:, None]
    si = np.arange(n, dtype=np.float32)[None, :]
    p = ((step * o + f32(start)) + bin_ / f32(2) + bin_ * si).astype(np.float32)
    lo = np.floor(p).astype(np.int64)
    frac = (p - lo.astype(np.float32)).astype(np.float32)
    edge = lo >= size - 1
    lo = np.where(edge, size - 1, lo)
    hi = np.where(edge, size - 1, lo + 1)
    frac = np.where(edge, f32(0), frac).astype(np.float32)
    return n, lo, hi, frac


@define("ROI_ALIGN", [
    Sig((F32, F32, I32, INT32, INT32, FLOAT32, FLOAT32, INT32, INT32, BOOL), (F32,)),
    Sig((F16, F16, I32, INT32, INT32, FLOAT16, FLOAT16, INT32, INT32, BOOL), (F16,)),
    Sig((Q8A, Q16A, I32, INT32, INT32, FLOAT32, FLOAT32, INT32, INT32, BOOL), (Q8A,)),
    Sig((Q8AS, Q16A, I32, INT32, INT32, FLOAT32, FLOAT32, INT32, INT32, BOOL), (Q8AS,), since="V1_3"),
], validate_roi_align)
def roi_align(k):
    """ROI_ALIGN: each region (scaled by :func:`scaled_rois`) is cut into ``out_h x out_w`` bins;
    each bin averages ``n_h x n_w`` bilinearly interpolated samples (:func:`_align_axis`; ``n`` is
    the sampling ratio, inputs 7-8, or ``ceil(bin size)`` when 0).

    float (float32; float16 with float32 intermediates where the reference uses ``_Float16``)::

        acc += ((w00 * v00 + w01 * v01) + w10 * v10) + w11 * v11     per sample, in (y, x) order
        out = acc / (n_h * n_w)
        w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy

    quantized (the reference's integer path)::

        wq = round_half_away(w / float32(1 / 255))                     per weight, float32 division
        acc = sum over samples and taps of wq * (q - z_in)             (int32)
        (m, e) = quantize_multiplier(float32(s_in * (1/255) / s_out / (n_h * n_w)))   must be < 1
        out = clamp(mbqm(acc, m, e) + z_out)
    """
    nchw, fmap, batches, scaled, out_h, out_w = _roi_inputs(k, 9, (5, 6))
    ratio_h, ratio_w = int(k.scalar(7)), int(k.scalar(8))
    n_rois = scaled.shape[0]
    _, height, width, depth = fmap.shape
    quant = k.in_ops[0].type in QUANT8
    out = np.zeros((n_rois, out_h, out_w, depth), np.int64 if quant else np.float32)
    w_scale = f32(1) / f32(255)
    if quant:
        in_op, out_op = k.in_ops[0], k.out_ops[0]
        values = fmap.astype(np.int64) - in_op.zero_point
    else:
        values = fmap.astype(np.float32)
    for r in range(n_rois):
        x1, y1, x2, y2 = scaled[r]
        nh, ylo, yhi, fy = _align_axis(y1, max(y2 - y1, f32(1)), out_h, ratio_h, height)
        nw, xlo, xhi, fx = _align_axis(x1, max(x2 - x1, f32(1)), out_w, ratio_w, width)
        fm = values[batches[r]]
        acc = np.zeros((out_h, out_w, depth), out.dtype)
        for sy in range(nh):
            dy1 = fy[:, sy][:, None, None]
            dy2 = f32(1) - dy1
            for sx in range(nw):
                dx1 = fx[:, sx][None, :, None]
                dx2 = f32(1) - dx1
                weights = (dx2 * dy2, dx1 * dy2, dx2 * dy1, dx1 * dy1)
                taps = (fm[ylo[:, sy][:, None], xlo[:, sx][None, :]],
                        fm[ylo[:, sy][:, None], xhi[:, sx][None, :]],
                        fm[yhi[:, sy][:, None], xlo[:, sx][None, :]],
                        fm[yhi[:, sy][:, None], xhi[:, sx][None, :]])
                if quant:
                    interp = sum(round_half_away((w / w_scale).astype(np.float32)).astype(np.int64) * t
                                 for w, t in zip(weights, taps))
                else:
                    interp = weights[0] * taps[0]
                    for w, t in zip(weights[1:], taps[1:]):
                        interp = interp + w * t
                acc = acc + interp
        count = nh * nw
        if quant:
            real = f32(f32(f32(in_op.scale) * w_scale) / f32(out_op.scale)) / f32(count)
            if not 0 < real < 1:
                k.fail(f"the requantization multiplier of region {r} is {real:g}, but the "
                       f"reference requires it to be in (0, 1)")
            m, e = quantize_multiplier(float(real))
            out[r] = multiply_by_quantized_multiplier(acc, m, e) + out_op.zero_point
        else:
            out[r] = acc / f32(count)
    if quant:
        lo, hi = qrange(k.out_ops[0].type)
        result = np.clip(out, lo, hi).astype(k.out_ops[0].info.dtype)
    else:
        result = float_result(out, k.out_ops[0].type)
    return [_from_nhwc(result, nchw)]


# --------------------------------------------------------------------------------------------
# ROI_POOLING


def validate_roi_pooling(v) -> None:
    _validate_roi(v, 7, (5, 6))
    if v.inp(0).type in QUANT8:
        check_same_quant(v, 0, v.out(0), "output 0")


def _pool_bins(start: int, end: int, n_out: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Bin edges along one axis of one region (float32 step, integer edges)::

        extent = max(end - start + 1, 1);  step = extent / n_out
        lo[o] = min(floor(step * o + start), size);  hi[o] = min(ceil(step * (o + 1) + start), size)
    """
    step = f32(max(end - start + 1, 1)) / f32(n_out)
    o = np.arange(n_out + 1, dtype=np.float32)
    edges = (step * o + f32(start)).astype(np.float32)
    lo = np.minimum(np.floor(edges[:-1]).astype(np.int64), size)
    hi = np.minimum(np.ceil(edges[1:]).astype(np.int64), size)
    return lo, hi


@define("ROI_POOLING", [
    Sig((F32, F32, I32, INT32, INT32, FLOAT32, FLOAT32, BOOL), (F32,)),
    Sig((F16, F16, I32, INT32, INT32, FLOAT16, FLOAT16, BOOL), (F16,)),
    Sig((Q8A, Q16A, I32, INT32, INT32, FLOAT32, FLOAT32, BOOL), (Q8A,)),
    Sig((Q8AS, Q16A, I32, INT32, INT32, FLOAT32, FLOAT32, BOOL), (Q8AS,), since="V1_3"),
], validate_roi_pooling)
def roi_pooling(k):
    """ROI_POOLING: each region (scaled by :func:`scaled_rois`, corners rounded half away from
    zero to integers) is cut into ``out_h x out_w`` bins (:func:`_pool_bins`, float32 steps), and
    each output is the maximum of its bin; an empty bin gives 0 (the input's zero point when
    quantized). Quantized maxima are taken on the stored values, so the output has the input's
    scale and zero point.
    """
    nchw, fmap, batches, scaled, out_h, out_w = _roi_inputs(k, 7, (5, 6))
    corners = round_half_away(scaled).astype(np.int64)
    _, height, width, depth = fmap.shape
    quant = k.in_ops[0].type in QUANT8
    empty = k.in_ops[0].zero_point if quant else 0
    out = np.full((scaled.shape[0], out_h, out_w, depth), empty, fmap.dtype)
    for r in range(scaled.shape[0]):
        x1, y1, x2, y2 = corners[r]
        hlo, hhi = _pool_bins(y1, y2, out_h, height)
        wlo, whi = _pool_bins(x1, x2, out_w, width)
        fm = fmap[batches[r]]
        # the maximum is separable: over each column bin (all rows at once), then each row bin
        by_col = np.zeros((height, out_w, depth), fmap.dtype)
        for j in range(out_w):
            if wlo[j] < whi[j]:
                by_col[:, j] = fm[:, wlo[j]:whi[j]].max(axis=1)
        for i in range(out_h):
            if hlo[i] < hhi[i]:
                cols = wlo < whi
                out[r, i, cols] = by_col[hlo[i]:hhi[i], cols].max(axis=0)
    return [_from_nhwc(out, nchw)]

