"""Detection and region operations: independent expectations (hand-made boxes, NumPy re-computations,
a literal simulation of the reference's in-place NMS) and every rejection the family adds.

The conformance vectors themselves run in tests/test_cts.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nnaccel.errors import ExecutionError, ModelError
from nnaccel.golden.detection import greedy_nms, iou_one_to_many
from nnaccel.golden.interpreter import Interpreter
from nnaccel.model import TYPE_INFO, ModelBuilder, OperandType
from nnaccel.validate import validate_model

T = OperandType
F32, F16, I32 = T.TENSOR_FLOAT32, T.TENSOR_FLOAT16, T.TENSOR_INT32
Q8A, Q8AS, Q16A, Q16S = (T.TENSOR_QUANT8_ASYMM, T.TENSOR_QUANT8_ASYMM_SIGNED, T.TENSOR_QUANT16_ASYMM,
                         T.TENSOR_QUANT16_SYMM)
SCALARS = (T.FLOAT32, T.FLOAT16, T.INT32, T.BOOL)


# --------------------------------------------------------------------------------------------
# Building one-operation models.


def inp(op_type, value, dims=None, scale=0.0, zp=0, const=False):
    """An input: tensors become model inputs (declared ``dims``, default the value's shape),
    scalars and ``const=True`` tensors constants."""
    return {"type": op_type, "value": value, "dims": dims, "scale": scale, "zp": zp, "const": const}


def out(op_type, dims, scale=0.0, zp=0):
    return {"type": op_type, "dims": dims, "scale": scale, "zp": zp}


def build(op_name, ins, outs, relaxed=False):
    b = ModelBuilder(relaxed=relaxed)
    model_inputs, arrays, idx = [], [], []
    for spec in ins:
        t = spec["type"]
        if t in SCALARS:
            idx.append(b.add_constant(t, spec["value"], ()))
            continue
        value = np.asarray(spec["value"]).astype(TYPE_INFO[t].dtype)
        dims = value.shape if spec["dims"] is None else spec["dims"]
        if spec["const"]:
            idx.append(b.add_constant(t, value, dims, spec["scale"], spec["zp"]))
            continue
        i = b.add_operand(t, dims, spec["scale"], spec["zp"])
        idx.append(i)
        model_inputs.append(i)
        arrays.append(value)
    out_idx = [b.add_operand(o["type"], o["dims"], o["scale"], o["zp"]) for o in outs]
    b.add_operation(op_name, idx, out_idx)
    b.identify_inputs_and_outputs(model_inputs, out_idx)
    return b.finish(), arrays


def run(op_name, ins, outs, relaxed=False):
    model, arrays = build(op_name, ins, outs, relaxed)
    return Interpreter(model).run(arrays)


def rejects(op_name, ins, outs, match, error=ModelError):
    model, arrays = build(op_name, ins, outs)
    with pytest.raises(error, match=match):
        Interpreter(model).run(arrays)


# --------------------------------------------------------------------------------------------
# IoU and the NMS core.


def test_iou_hand_made_boxes():
    box = np.array([0, 0, 10, 10], np.float32)
    others = np.array([[5, 5, 15, 15],    # overlap 5x5 = 25, union 175
                       [0, 0, 10, 10],    # identical
                       [10, 0, 20, 10],   # touching edge: no overlap
                       [2, 2, 4, 4]],     # inside: 4 / 100
                      np.float32)
    np.testing.assert_allclose(iou_one_to_many(box, others), [25 / 175, 1.0, 0.0, 0.04], rtol=1e-6)


def _iou32(a, b):
    """float32 IoU of two boxes, one scalar operation at a time."""
    a = [np.float32(v) for v in a]
    b = [np.float32(v) for v in b]
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    w = max(min(a[2], b[2]) - max(a[0], b[0]), np.float32(0))
    h = max(min(a[3], b[3]) - max(a[1], b[1]), np.float32(0))
    inter = w * h
    return inter / (area_a + area_b - inter)


def simulate_reference_nms(scores, boxes, cand, max_out, iou_threshold=None, soft=None):
    """A literal list simulation of the reference's in-place NMS (``hardNmsSingleClass`` /
    ``softNmsSingleClass``): select the first maximum, swap it to the front, walk the rest and swap
    each dropped entry with the last pending one."""
    scores = scores.copy()
    sel = list(cand)
    start, end = 0, len(sel)
    limit = len(sel) if max_out < 0 else max_out
    while start < end and start < limit:
        best = start
        for i in range(start + 1, end):
            if scores[sel[best]] < scores[sel[i]]:
                best = i
        sel[best], sel[start] = sel[start], sel[best]
        i = start + 1
        while i < end:
            iou = _iou32(boxes[sel[i]], boxes[sel[start]])
            if soft is None:
                drop = iou >= iou_threshold
            else:
                kind, thr, sigma, score_thr = soft
                if kind == 0:
                    factor = np.float32(1.0 if iou < thr else 0.0)
                elif kind == 1:
                    factor = np.float32(1.0) if iou < thr else np.float32(1.0) - iou
                else:
                    factor = np.exp(np.float32(-1.0) * iou * iou / np.float32(sigma))
                scores[sel[i]] = np.float32(scores[sel[i]] * factor)
                drop = scores[sel[i]] < score_thr
            if drop:
                end -= 1
                sel[i], sel[end] = sel[end], sel[i]
            else:
                i += 1
        start += 1
    return sel[:start], scores


@st.composite
def nms_case(draw):
    n = draw(st.integers(1, 12))
    x1 = np.array(draw(st.lists(st.integers(0, 8), min_size=n, max_size=n)))
    y1 = np.array(draw(st.lists(st.integers(0, 8), min_size=n, max_size=n)))
    w = np.array(draw(st.lists(st.integers(1, 6), min_size=n, max_size=n)))
    h = np.array(draw(st.lists(st.integers(1, 6), min_size=n, max_size=n)))
    boxes = np.stack([x1, y1, x1 + w, y1 + h], axis=1).astype(np.float32)
    # few distinct scores, so that ties (and the reference's tie order) matter
    scores = np.array(draw(st.lists(st.sampled_from([0.2, 0.5, 0.7, 0.9]), min_size=n, max_size=n)),
                      np.float32)
    cand = draw(st.permutations(range(n)))
    return scores, boxes, cand, draw(st.integers(-1, 5))


@settings(max_examples=150, deadline=None)
@given(nms_case(), st.sampled_from([0.0, 0.3, 0.5]))
def test_hard_nms_matches_reference_simulation(case, thr):
    scores, boxes, cand, max_out = case
    expected, _ = simulate_reference_nms(scores, boxes, cand, max_out, iou_threshold=np.float32(thr))
    got = greedy_nms(scores.copy(), boxes, cand, max_out, iou_threshold=np.float32(thr))
    assert got.tolist() == expected


@settings(max_examples=150, deadline=None)
@given(nms_case(), st.sampled_from([0, 1, 2]), st.sampled_from([0.0, 0.3, 0.45]))
def test_soft_nms_matches_reference_simulation(case, kind, score_thr):
    scores, boxes, cand, max_out = case
    soft = (kind, np.float32(0.4), np.float32(0.5), np.float32(score_thr))
    expected, exp_scores = simulate_reference_nms(scores, boxes, cand, max_out, soft=soft)
    got_scores = scores.copy()
    got = greedy_nms(got_scores, boxes, cand, max_out, soft=soft)
    assert got.tolist() == expected
    np.testing.assert_array_equal(got_scores, exp_scores)


def test_nms_selected_boxes_overlap_less_than_threshold():
    rng = np.random.default_rng(1)
    xy = rng.uniform(0, 20, (40, 2)).astype(np.float32)
    boxes = np.concatenate([xy, xy + rng.uniform(1, 8, (40, 2)).astype(np.float32)], axis=1)
    scores = rng.uniform(0, 1, 40).astype(np.float32)
    sel = greedy_nms(scores, boxes, np.arange(40), -1, iou_threshold=np.float32(0.3))
    assert list(scores[sel]) == sorted(scores[sel], reverse=True)
    for a in range(len(sel)):
        for b in range(a + 1, len(sel)):
            assert _iou32(boxes[sel[a]], boxes[sel[b]]) < 0.3
    # every box left out overlaps a selected box with a higher score
    for i in set(range(40)) - set(sel.tolist()):
        assert any(_iou32(boxes[i], boxes[j]) >= 0.3 and scores[j] >= scores[i] for j in sel)


# --------------------------------------------------------------------------------------------
# AXIS_ALIGNED_BBOX_TRANSFORM


def bbox_transform_f64(rois, deltas, batches, info):
    out = np.zeros(deltas.shape)
    for r, (x1, y1, x2, y2) in enumerate(rois.astype(np.float64)):
        w, h, cx, cy = x2 - x1, y2 - y1, (x1 + x2) / 2, (y1 + y2) / 2
        height, width = info[batches[r]]
        for c in range(deltas.shape[1] // 4):
            dx, dy, dw, dh = deltas[r, 4 * c:4 * c + 4].astype(np.float64)
            ncx, ncy, nw, nh = cx + dx * w, cy + dy * h, math.exp(dw) * w, math.exp(dh) * h
            box = [ncx - nw / 2, ncy - nh / 2, ncx + nw / 2, ncy + nh / 2]
            lim = [width, height, width, height]
            out[r, 4 * c:4 * c + 4] = [min(max(v, 0.0), m) for v, m in zip(box, lim)]
    return out


def _bbox_inputs(rng, n=5, classes=3):
    xy = rng.uniform(0, 30, (n, 2))
    rois = np.concatenate([xy, xy + rng.uniform(0, 20, (n, 2))], axis=1).astype(np.float32)
    deltas = rng.uniform(-1, 1, (n, 4 * classes)).astype(np.float32)
    batches = np.array(sorted(rng.integers(0, 2, n)), np.int32)
    info = np.array([[40, 35], [25, 50]], np.float32)
    return rois, deltas, batches, info


def test_bbox_transform_float32_and_float16_match_float64():
    rois, deltas, batches, info = _bbox_inputs(np.random.default_rng(0))
    exp = bbox_transform_f64(rois, deltas, batches, info)
    for t, tol in ((F32, 1e-4), (F16, 0.05)):
        (got,) = run("AXIS_ALIGNED_BBOX_TRANSFORM",
                     [inp(t, rois), inp(t, deltas), inp(I32, batches), inp(t, info)],
                     [out(t, deltas.shape)])
        assert got.dtype == TYPE_INFO[t].dtype
        np.testing.assert_allclose(got.astype(np.float64), exp, atol=tol, rtol=tol)


def test_bbox_transform_quantized_rounds_to_eighths():
    rois, deltas, batches, info = _bbox_inputs(np.random.default_rng(3))
    rq = np.round(rois * 8).astype(np.uint16)
    dq = np.clip(np.round(deltas / 0.05) + 128, 0, 255).astype(np.uint8)
    iq = np.round(info * 8).astype(np.uint16)
    exp = bbox_transform_f64(rq / 8.0, (dq.astype(np.float64) - 128) * 0.05, batches, iq / 8.0)
    (got,) = run("AXIS_ALIGNED_BBOX_TRANSFORM",
                 [inp(Q16A, rq, scale=0.125), inp(Q8A, dq, scale=0.05, zp=128), inp(I32, batches),
                  inp(Q16A, iq, scale=0.125)],
                 [out(Q16A, deltas.shape, 0.125)])
    assert got.dtype == np.uint16
    assert np.abs(got.astype(np.float64) - exp * 8).max() <= 0.5 + 1e-3


def _bbox(rois, deltas, batches, info, t=F32, **kw):
    return [inp(t, rois, **kw.get("r", {})), inp(t, deltas, **kw.get("d", {})), inp(I32, batches),
            inp(t, info, **kw.get("i", {}))]


def test_bbox_transform_rejections():
    rois = np.array([[0, 0, 4, 4], [1, 1, 3, 3]], np.float32)
    deltas = np.zeros((2, 8), np.float32)
    batches = np.array([0, 0], np.int32)
    info = np.array([[10, 10]], np.float32)
    op = "AXIS_ALIGNED_BBOX_TRANSFORM"
    rejects(op, _bbox(rois, np.zeros((2, 6), np.float32), batches, info), [out(F32, (2, 6))],
            "deltas must hold 4 per class")
    rejects(op, _bbox(rois, deltas, batches, np.array([[10, 10, 1]], np.float32)), [out(F32, (2, 8))],
            r"has 3 in dimension 1, but the image info length \[height, width\] is 2")
    rejects(op, _bbox(rois, np.zeros((3, 8), np.float32), batches, info), [out(F32, (3, 8))],
            "has 3 in dimension 0, but the number of boxes is 2")
    rejects(op, _bbox(rois[:, :3], deltas, batches, info), [out(F32, (2, 8))],
            r"box length \[x1, y1, x2, y2\] is 4")
    rejects(op, _bbox(rois, deltas, batches, info), [out(F32, (2, 4))],
            "produces size 8 in dimension 1")
    model_ins = [inp(Q16A, rois.astype(np.uint16), scale=0.25), inp(Q8A, deltas, scale=0.1, zp=128),
                 inp(I32, batches), inp(Q16A, info.astype(np.uint16), scale=0.125)]
    rejects(op, model_ins, [out(Q16A, (2, 8), 0.125)], "must have scale 0.125 and zero point 0")
    # run time: the data
    rejects(op, _bbox(rois, deltas, np.array([0, 1], np.int32), info), [out(F32, (2, 8))],
            r"box 1 has batch index 1, outside \[0, 1\)", ExecutionError)
    rejects(op, _bbox(np.array([[0, 0, 4, 4], [3, 1, 1, 3]], np.float32), deltas, batches, info),
            [out(F32, (2, 8))], "box 1 is .* must have x1 <= x2", ExecutionError)
    # run time: shapes the declarations left open
    rejects(op, [inp(F32, rois, dims=(0, 4)), inp(F32, np.zeros((3, 8), np.float32), dims=(0, 8)),
                 inp(I32, batches, dims=(0,)), inp(F32, info)], [out(F32, (0, 8))],
            "input 1 has 3 in dimension 0, but the number of boxes is 2", ExecutionError)


def test_bbox_transform_zero_boxes():
    (got,) = run("AXIS_ALIGNED_BBOX_TRANSFORM",
                 [inp(F32, np.zeros((0, 4)), dims=(0, 4)), inp(F32, np.zeros((0, 8)), dims=(0, 8)),
                  inp(I32, np.zeros(0), dims=(0,)), inp(F32, [[10.0, 10.0]])], [out(F32, (0, 8))])
    assert got.shape == (0, 8)


# --------------------------------------------------------------------------------------------
# BOX_WITH_NMS_LIMIT


def _box_nms(scores, rois, batches, kind=0, max_det=-1, t=F32, st=F32, score_thr=0.0, iou=0.5,
             sigma=1.0, nms_thr=0.0, **q):
    s = T.FLOAT16 if t == F16 else T.FLOAT32
    ins = [inp(st, scores, **q.get("s", {})), inp(t if st in (F32, F16) else Q16A, rois,
                                                  **q.get("r", {})),
           inp(I32, batches), inp(s, score_thr), inp(T.INT32, max_det), inp(T.INT32, kind),
           inp(s, iou), inp(s, sigma), inp(s, nms_thr)]
    outs = [out(st, (0,), **q.get("s", {})), out(ins[1]["type"], (0, 4), **q.get("r", {})),
            out(I32, (0,)), out(I32, (0,))]
    return ins, outs


def _hand_boxes():
    """Two classes (plus the background) over 4 boxes of one batch and 2 of another."""
    scores = np.array([[0.0, 0.9, 0.1],
                       [0.0, 0.8, 0.6],
                       [0.0, 0.3, 0.7],
                       [0.0, 0.05, 0.2],
                       [0.0, 0.5, 0.4],
                       [0.0, 0.6, 0.1]], np.float32)
    one = [[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 10, 10],
           [0, 0, 10, 10], [0, 0, 10, 10]]
    rois = np.array([b * 3 for b in one], np.float32)  # same box for every class
    rois[1, 8:12] = [40, 40, 50, 50]  # class 2 of box 1 is far away from everything
    batches = np.array([0, 0, 0, 0, 1, 1], np.int32)
    return scores, rois, batches


def test_box_with_nms_limit_hard_hand_made():
    scores, rois, batches = _hand_boxes()
    # batch 0, class 1: 0.9 (box 0) suppresses box 1 (IoU 81/119 = 0.68) and box 3 (IoU 1);
    #   box 2 (0.3) survives; threshold 0.1 removes box 3 (0.05) anyway.
    # batch 0, class 2: 0.7 (box 2), 0.6 (box 1, far away), 0.2 (box 3) vs box 0 (0.1: filtered).
    # batch 1, class 1: 0.6 (box 5) suppresses box 4 (identical); class 2: 0.4 (box 4) over 0.1.
    s, r, c, b = run("BOX_WITH_NMS_LIMIT", *_box_nms(scores, rois, batches, score_thr=0.1,
                                                     nms_thr=0.05))
    np.testing.assert_allclose(s, [0.9, 0.3, 0.7, 0.6, 0.2, 0.6, 0.4], rtol=1e-6)
    assert c.tolist() == [1, 1, 2, 2, 2, 1, 2]
    assert b.tolist() == [0, 0, 0, 0, 0, 1, 1]
    np.testing.assert_array_equal(r, [[0, 0, 10, 10], [20, 20, 30, 30], [20, 20, 30, 30],
                                      [40, 40, 50, 50], [0, 0, 10, 10], [0, 0, 10, 10],
                                      [0, 0, 10, 10]])


def test_box_with_nms_limit_max_detections_keeps_best_then_sorts_by_class():
    scores, rois, batches = _hand_boxes()
    s, _, c, b = run("BOX_WITH_NMS_LIMIT", *_box_nms(scores, rois, batches, score_thr=0.1,
                                                     max_det=2))
    # batch 0: best two over all classes are 0.9 (class 1) and 0.7 (class 2)
    np.testing.assert_allclose(s, [0.9, 0.7, 0.6, 0.4], rtol=1e-6)
    assert c.tolist() == [1, 2, 1, 2] and b.tolist() == [0, 0, 1, 1]


def test_box_with_nms_limit_linear_and_gaussian_lower_scores():
    scores = np.array([[0, 0.9], [0, 0.8]], np.float32)
    rois = np.array([[0, 0, 1, 1, 0, 0, 10, 10], [0, 0, 1, 1, 0, 0, 10, 5]], np.float32)
    batches = np.array([0, 0], np.int32)
    iou = 0.5  # box 1 is half of box 0
    s, *_ = run("BOX_WITH_NMS_LIMIT", *_box_nms(scores, rois, batches, kind=1, iou=0.4))
    np.testing.assert_allclose(s, [0.9, 0.8 * (1 - iou)], rtol=1e-6)
    s, *_ = run("BOX_WITH_NMS_LIMIT", *_box_nms(scores, rois, batches, kind=2, sigma=0.5))
    np.testing.assert_allclose(s, [0.9, 0.8 * math.exp(-iou * iou / 0.5)], rtol=1e-6)
    # hard: the suppressed score becomes 0 -- dropped only when below nms_score_threshold
    s, *_ = run("BOX_WITH_NMS_LIMIT", *_box_nms(scores, rois, batches, kind=0, iou=0.4))
    np.testing.assert_allclose(s, [0.9, 0.0])
    s, *_ = run("BOX_WITH_NMS_LIMIT", *_box_nms(scores, rois, batches, kind=0, iou=0.4,
                                                nms_thr=0.01))
    np.testing.assert_allclose(s, [0.9])


def test_box_with_nms_limit_float16_and_quantized():
    scores, rois, batches = _hand_boxes()
    s, r, c, _ = run("BOX_WITH_NMS_LIMIT", *_box_nms(scores, rois, batches, t=F16, st=F16,
                                                     score_thr=0.1, nms_thr=0.05))
    assert s.dtype == np.float16 and r.dtype == np.float16
    np.testing.assert_allclose(s, [0.9, 0.3, 0.7, 0.6, 0.2, 0.6, 0.4], rtol=1e-3)
    for qt, zp in ((Q8A, 0), (Q8AS, -128)):
        sq = (np.round(scores / 0.01) + zp).astype(TYPE_INFO[qt].dtype)
        ins, outs = _box_nms(sq, (rois * 8).astype(np.uint16), batches, st=qt, score_thr=0.1, nms_thr=0.05,
                             s={"scale": 0.01, "zp": zp}, r={"scale": 0.125})
        s, r, c, _b = run("BOX_WITH_NMS_LIMIT", ins, outs)
        assert s.dtype == TYPE_INFO[qt].dtype and r.dtype == np.uint16
        assert (s.astype(int) - zp).tolist() == [90, 30, 70, 60, 20, 60, 40]
        assert r[3].tolist() == [320, 320, 400, 400] and c.tolist() == [1, 1, 2, 2, 2, 1, 2]


def test_box_with_nms_limit_zero_boxes():
    ins, outs = _box_nms(np.zeros((0, 3)), np.zeros((0, 12)), np.zeros(0))
    for i in range(3):
        ins[i]["dims"] = (0,) + np.shape(ins[i]["value"])[1:]
    s, r, c, b = run("BOX_WITH_NMS_LIMIT", ins, outs)
    assert s.shape == (0,) and r.shape == (0, 4) and c.shape == (0,) and b.shape == (0,)


def test_box_with_nms_limit_rejections():
    scores, rois, batches = _hand_boxes()
    op = "BOX_WITH_NMS_LIMIT"
    rejects(op, *_box_nms(scores, rois, batches, kind=3),
            r"is 3, but the NMS kernel must be 0 \(hard\), 1 \(linear\) or 2 \(gaussian\)")
    rejects(op, *_box_nms(scores[:, :1], rois[:, :4], batches),
            "has 1 classes, but the scores need at least 2")
    rejects(op, *_box_nms(scores, rois[:, :8], batches),
            "has 8 in dimension 1, but 4 x the number of classes is 12")
    rejects(op, *_box_nms(scores, rois, batches[:5]),
            "has 5 in dimension 0, but the number of boxes is 6")
    ins, outs = _box_nms((scores * 100).astype(np.uint8), (rois * 8).astype(np.uint16), batches,
                         st=Q8A, s={"scale": 0.01}, r={"scale": 0.125})
    outs[0]["scale"] = 0.02
    rejects(op, ins, outs, "spec requires the same as output 0")
    ins[1]["zp"] = 3
    rejects(op, ins, outs, "must have scale 0.125 and zero point 0")
    # run time
    rejects(op, *_box_nms(scores, rois, np.array([0, 0, 1, 1, 0, 0], np.int32)),
            "the boxes of batch 0 are not grouped together", ExecutionError)
    rejects(op, *_box_nms(scores, rois, np.array([-1, -1, 0, 0, 0, 0], np.int32)),
            "box 0 has batch index -1, but batch indices must be >= 0", ExecutionError)
    bad = rois.copy()
    bad[2, 4:8] = [5, 5, 4, 6]
    rejects(op, *_box_nms(scores, bad, batches), "box 2 \\(class 1\\) is .* must have x1 <= x2", ExecutionError)


# --------------------------------------------------------------------------------------------
# GENERATE_PROPOSALS


def _gp(scores, deltas, anchors, info, t=F32, strides=(1.0, 1.0), pre=-1, post=-1, iou=0.5,
        min_size=0.0, nchw=False, **q):
    s = T.FLOAT16 if t == F16 else T.FLOAT32
    quant = t in (Q8A, Q8AS)
    ins = [inp(t, scores, **q.get("s", {})), inp(t, deltas, **q.get("d", {})),
           inp(Q16S if quant else t, anchors, **q.get("a", {})),
           inp(Q16A if quant else t, info, **q.get("i", {})),
           inp(s, strides[0]), inp(s, strides[1]), inp(T.INT32, pre), inp(T.INT32, post),
           inp(s, iou), inp(s, min_size), inp(T.BOOL, nchw)]
    outs = [out(t, (0,), **q.get("s", {})), out(Q16A if quant else t, (0, 4), **q.get("o", {})),
            out(I32, (0,))]
    return ins, outs


def _gp_case():
    """A 2x2 feature map, 2 anchors, zero deltas: the proposals are the shifted anchors."""
    scores = np.array([[[[0.9, 0.2], [0.8, 0.7]], [[0.3, 0.6], [0.1, 0.5]]]], np.float32)
    deltas = np.zeros((1, 2, 2, 8), np.float32)
    anchors = np.array([[0, 0, 4, 4], [0, 0, 8, 2]], np.float32)
    info = np.array([[12, 12]], np.float32)
    return scores, deltas, anchors, info


def gp_expected(scores, anchors, stride, info, iou_thr):
    """Shifted anchors, clipped, greedy hard NMS in plain Python (float64)."""
    boxes, sc = [], []
    for h in range(scores.shape[1]):
        for w in range(scores.shape[2]):
            for a, (x1, y1, x2, y2) in enumerate(anchors):
                box = [x1 + w * stride, y1 + h * stride, x2 + w * stride, y2 + h * stride]
                height, width = info
                boxes.append([min(max(box[0], 0), width), min(max(box[1], 0), height),
                              min(max(box[2], 0), width), min(max(box[3], 0), height)])
                sc.append(float(scores[0, h, w, a]))
    order = sorted(range(len(sc)), key=lambda i: -sc[i])
    kept = []
    for i in order:
        if all(_iou32(boxes[i], boxes[j]) < iou_thr for j in kept):
            kept.append(i)
    return [sc[i] for i in kept], [boxes[i] for i in kept]


def test_generate_proposals_zero_deltas_is_nms_of_shifted_anchors():
    scores, deltas, anchors, info = _gp_case()
    exp_s, exp_b = gp_expected(scores, anchors, 4.0, info[0], 0.3)
    s, b, bi = run("GENERATE_PROPOSALS", *_gp(scores, deltas, anchors, info, strides=(4.0, 4.0),
                                              iou=0.3))
    np.testing.assert_allclose(s, exp_s, rtol=1e-6)
    np.testing.assert_allclose(b, exp_b, rtol=1e-6)
    assert bi.tolist() == [0] * len(exp_s)
    # NCHW gives the same
    s2, b2, _ = run("GENERATE_PROPOSALS", *_gp(scores.transpose(0, 3, 1, 2), deltas.transpose(0, 3, 1, 2),
                                               anchors, info, strides=(4.0, 4.0), iou=0.3, nchw=True))
    np.testing.assert_array_equal(s2, s)
    np.testing.assert_array_equal(b2, b)
    # pre- and post-NMS limits
    s3, _, _ = run("GENERATE_PROPOSALS", *_gp(scores, deltas, anchors, info, strides=(4.0, 4.0),
                                              iou=0.3, pre=3, post=2))
    assert len(s3) <= 2 and s3[0] == np.float32(0.9)
    # min_size: every proposal here is at least 2 wide; 2.5 keeps only the 4x4 / clipped ones
    _s4, b4, _ = run("GENERATE_PROPOSALS", *_gp(scores, deltas, anchors, info, strides=(4.0, 4.0),
                                               iou=1.0, min_size=2.5))
    assert all(min(x2 - x1, y2 - y1) > 2.5 for x1, y1, x2, y2 in b4)


def test_generate_proposals_quantized():
    scores, deltas, anchors, info = _gp_case()
    for qt, zp in ((Q8A, 128), (Q8AS, 0)):
        dt = TYPE_INFO[qt].dtype
        ins, outs = _gp((np.round(scores / 0.01) + zp).astype(dt),
                        np.full(deltas.shape, zp, dt), (anchors * 8).astype(np.int16),
                        (info * 8).astype(np.uint16), t=qt, strides=(4.0, 4.0), iou=0.3,
                        s={"scale": 0.01, "zp": zp}, d={"scale": 0.05, "zp": zp}, a={"scale": 0.125},
                        i={"scale": 0.125}, o={"scale": 0.125})
        s, b, _ = run("GENERATE_PROPOSALS", ins, outs)
        exp_s, exp_b = gp_expected(scores, anchors, 4.0, info[0], 0.3)
        np.testing.assert_allclose((s.astype(float) - zp) * 0.01, exp_s, atol=1e-6)
        np.testing.assert_array_equal(b, np.array(exp_b) * 8)


def test_generate_proposals_rejections():
    scores, deltas, anchors, info = _gp_case()
    op = "GENERATE_PROPOSALS"
    rejects(op, *_gp(scores, deltas[..., :6], anchors, info),
            "has 6 in dimension 3, but 4 x the number of anchors is 8")
    rejects(op, *_gp(scores, deltas, anchors[:1], info),
            "has 1 in dimension 0, but the number of anchors is 2")
    rejects(op, *_gp(scores, deltas, anchors, np.array([[12, 12], [12, 12]], np.float32)),
            "has 2 in dimension 0, but the number of batches is 1")
    rejects(op, *_gp(scores, deltas, anchors, np.array([[12, 12, 1]], np.float32)),
            r"image info length \[height, width\] is 2")
    rejects(op, *_gp(scores, deltas, anchors, info, strides=(0.0, 1.0)),
            "is 0, but the height stride must be > 0")
    rejects(op, *_gp(scores[0], deltas, anchors, info), "has rank 3, but the scores must be a 4-D")
    bad = anchors.copy()
    bad[1] = [5, 0, 1, 2]
    rejects(op, *_gp(scores, deltas, bad, info), "box 1 is .* must have x1 <= x2", ExecutionError)


# --------------------------------------------------------------------------------------------
# DETECTION_POSTPROCESSING


def _dp(scores, deltas, anchors, t=F32, scales=(10.0, 10.0, 5.0, 5.0), regular=False, max_det=3,
        per_det=1, per_class=1, score_thr=0.0, iou=0.5, bg=False, out_dims=None):
    s = T.FLOAT16 if t == F16 else T.FLOAT32
    ins = [inp(t, scores), inp(t, deltas), inp(t, anchors)] + [inp(s, v) for v in scales] + [
        inp(T.BOOL, regular), inp(T.INT32, max_det), inp(T.INT32, per_det), inp(T.INT32, per_class),
        inp(s, score_thr), inp(s, iou), inp(T.BOOL, bg)]
    n = scores.shape[0]
    count = max_det if regular else max_det * per_det
    if out_dims is not None:
        count = out_dims
    return ins, [out(t, (n, count)), out(t, (n, count, 4)), out(I32, (n, count)), out(I32, (n,))]


def _dp_case():
    """Anchors [cy, cx, h, w]; with zero deltas the boxes are the anchors' corners."""
    anchors = np.array([[5, 5, 10, 10], [6, 6, 10, 10], [30, 30, 10, 10], [50, 50, 4, 8]], np.float32)
    scores = np.array([[[0, 0.9, 0.1], [0, 0.8, 0.85], [0, 0.2, 0.75], [0.9, 0.05, 0.1]]], np.float32)
    deltas = np.zeros((1, 4, 4), np.float32)
    return scores, deltas, anchors


def test_detection_postprocessing_fast_hand_made():
    scores, deltas, anchors = _dp_case()
    s, b, c, n = run("DETECTION_POSTPROCESSING", *_dp(scores, deltas, anchors, score_thr=0.3,
                                                      per_det=2))
    # best non-background scores: 0.9, 0.85, 0.75, 0.1 (below 0.3); anchor 1 overlaps anchor 0
    # (IoU 81/119 >= 0.5) and is suppressed; each kept anchor emits its 2 best classes
    assert n.tolist() == [4]
    np.testing.assert_allclose(s[0, :4], [0.9, 0.1, 0.75, 0.2], rtol=1e-6)
    assert c[0, :4].tolist() == [0, 1, 1, 0]
    np.testing.assert_allclose(b[0, :4], [[0, 0, 10, 10]] * 2 + [[25, 25, 35, 35]] * 2)
    assert (s[0, 4:] == 0).all() and (c[0, 4:] == 0).all() and (b[0, 4:] == 0).all()


def test_detection_postprocessing_regular_hand_made():
    scores, deltas, anchors = _dp_case()
    s, b, c, n = run("DETECTION_POSTPROCESSING", *_dp(scores, deltas, anchors, regular=True,
                                                      score_thr=0.3, per_class=2, bg=True))
    # class 1: 0.9 (anchor 0) suppresses 0.8 (anchor 1); class 2: 0.85 (anchor 1), 0.75 (anchor 2)
    assert n.tolist() == [3]
    np.testing.assert_allclose(s[0], [0.9, 0.85, 0.75], rtol=1e-6)
    assert c[0].tolist() == [1, 2, 2]  # background included: labels keep the class number
    np.testing.assert_allclose(b[0], [[0, 0, 10, 10], [1, 1, 11, 11], [25, 25, 35, 35]])


def test_detection_postprocessing_decodes_with_scales():
    anchors = np.array([[10, 20, 4, 8]], np.float32)  # cy, cx, h, w
    deltas = np.array([[[1.0, -2.0, 0.5, 1.0, 7.0]]], np.float32)  # dy dx dh dw (+ ignored)
    scores = np.array([[[0, 1.0]]], np.float32)
    _s, b, _c, _n = run("DETECTION_POSTPROCESSING", *_dp(scores, deltas, anchors, max_det=1,
                                                      scales=(10.0, 5.0, 2.0, 4.0)))
    cy, cx = 10 + 4 * 1.0 / 10, 20 + 8 * -2.0 / 5
    hh, hw = 4 * math.exp(0.5 / 2) / 2, 8 * math.exp(1.0 / 4) / 2
    np.testing.assert_allclose(b[0, 0], [cy - hh, cx - hw, cy + hh, cx + hw], rtol=1e-6)
    (_s16, b16, _, _) = run("DETECTION_POSTPROCESSING",
                           *_dp(scores, deltas, anchors, t=F16, max_det=1, scales=(10.0, 5.0, 2.0, 4.0)))
    assert b16.dtype == np.float16
    np.testing.assert_allclose(b16[0, 0], [cy - hh, cx - hw, cy + hh, cx + hw], rtol=2e-3)


def test_detection_postprocessing_rejections():
    scores, deltas, anchors = _dp_case()
    op = "DETECTION_POSTPROCESSING"
    rejects(op, *_dp(scores, deltas, anchors, scales=(10.0, 0.0, 5.0, 5.0)),
            "is 0, but the x scale must be > 0")
    rejects(op, *_dp(scores, deltas, anchors, max_det=0), "maximum number of detections must be > 0")
    rejects(op, *_dp(scores, deltas, anchors, iou=-0.1), "IoU threshold must be >= 0")
    rejects(op, *_dp(scores, deltas, anchors, regular=True, per_class=0),
            r"per class \(regular NMS\) must be > 0")
    rejects(op, *_dp(scores, deltas, anchors, per_det=0), r"classes per detection \(fast NMS\)")
    rejects(op, *_dp(scores[..., :1], deltas, anchors), "has 1 classes")
    rejects(op, *_dp(scores, deltas[..., :3], anchors), "box encoding of length 3")
    rejects(op, *_dp(scores, deltas, anchors[:3]), "has 3 in dimension 0, but the number of anchors is 4")
    rejects(op, *_dp(scores, deltas, anchors, out_dims=4), "produces size 3 in dimension 1")


# --------------------------------------------------------------------------------------------
# HEATMAP_MAX_KEYPOINT


def _paraboloid(size, x0, y0, peak):
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float64)
    return peak - 0.1 * (xx - x0) ** 2 - 0.2 * (yy - y0) ** 2


def test_heatmap_max_keypoint_recovers_a_quadratic_peak():
    # The Taylor expansion is exact on a quadratic: the refined keypoint is the true peak.
    size, peaks = 6, [(2.3, 3.4, 5.0), (1.6, 0.8, 2.0)]
    heat = np.stack([_paraboloid(size, *p) for p in peaks], axis=-1)[None].astype(np.float32)
    heat = np.concatenate([heat, heat], axis=0)  # two boxes, same heatmaps
    boxes = np.array([[0, 0, 6, 6], [10, 20, 22, 32]], np.float32)
    for t, tol in ((F32, 1e-4), (F16, 2e-2)):
        s, kp = run("HEATMAP_MAX_KEYPOINT", [inp(t, heat), inp(t, boxes), inp(T.BOOL, False)],
                    [out(t, (2, 2)), out(t, (2, 2, 2))])
        np.testing.assert_allclose(s.astype(float), [[5.0, 2.0]] * 2, atol=tol)
        for bi, (x1, y1, x2, y2) in enumerate(boxes):
            for ki, (x0, y0, _) in enumerate(peaks):
                exp = [(x0 + 0.5) / size * (x2 - x1) + x1, (y0 + 0.5) / size * (y2 - y1) + y1]
                np.testing.assert_allclose(kp[bi, ki].astype(float), exp, rtol=tol, atol=tol)
    ins = [inp(F32, heat), inp(F32, boxes), inp(T.BOOL, False)]
    outs = [out(F32, (2, 2)), out(F32, (2, 2, 2))]
    s1, kp1 = run("HEATMAP_MAX_KEYPOINT", ins, outs)
    ins[0], ins[2] = inp(F32, heat.transpose(0, 3, 1, 2)), inp(T.BOOL, True)
    s2, kp2 = run("HEATMAP_MAX_KEYPOINT", ins, outs)
    np.testing.assert_array_equal(s2, s1)
    np.testing.assert_array_equal(kp2, kp1)


def test_heatmap_max_keypoint_flat_grid_keeps_the_maximum_and_mirrors_edges():
    heat = np.zeros((1, 3, 3, 1), np.float32)
    heat[0, 0, 0, 0] = 1.0  # a corner maximum: the 3x3 grid mirrors row/column -1 to 1
    s, kp = run("HEATMAP_MAX_KEYPOINT", [inp(F32, heat), inp(F32, [[0, 0, 3, 3]]), inp(T.BOOL, False)],
                [out(F32, (1, 1)), out(F32, (1, 1, 2))])
    # mirrored grid [[0,0,0],[0,1,0],[0,0,0]]: gradient 0, Hessian diag(-2,-2): delta 0
    np.testing.assert_allclose(s, [[1.0]])
    np.testing.assert_allclose(kp, [[[0.5, 0.5]]])


def test_heatmap_max_keypoint_quantized():
    heat = _paraboloid(4, 1.25, 2.0, 3.0)[None, :, :, None]
    for qt, zp in ((Q8A, 100), (Q8AS, 0)):
        info = np.iinfo(TYPE_INFO[qt].dtype)
        hq = np.clip(np.round(heat / 0.05) + zp, info.min, info.max).astype(info.dtype)
        s, kp = run("HEATMAP_MAX_KEYPOINT",
                    [inp(qt, hq, scale=0.05, zp=zp), inp(Q16A, [[0, 0, 32, 32]], scale=0.125),
                     inp(T.BOOL, False)],
                    [out(qt, (1, 1), 0.03, zp), out(Q16A, (1, 1, 2), 0.125)])
        assert abs((int(s[0, 0]) - zp) * 0.03 - 3.0) <= 0.08
        # x = (1.25 + 0.5) / 4 * 4 = 1.75 -> 14 eighths; y = 2.5 -> 20 eighths
        assert abs(int(kp[0, 0, 0]) - 14) <= 1 and abs(int(kp[0, 0, 1]) - 20) <= 1


def test_heatmap_max_keypoint_rejections():
    op = "HEATMAP_MAX_KEYPOINT"
    box = np.array([[0, 0, 4, 4]], np.float32)
    rejects(op, [inp(F32, np.zeros((1, 3, 4, 2))), inp(F32, box), inp(T.BOOL, False)],
            [out(F32, (1, 2)), out(F32, (1, 2, 2))], "heatmaps must be square")
    rejects(op, [inp(F32, np.zeros((1, 1, 1, 2))), inp(F32, box), inp(T.BOOL, False)],
            [out(F32, (1, 2)), out(F32, (1, 2, 2))], "the size must be at least 2")
    rejects(op, [inp(F32, np.zeros((2, 3, 3, 2))), inp(F32, box), inp(T.BOOL, False)],
            [out(F32, (2, 2)), out(F32, (2, 2, 2))], "but the number of heatmaps is 2")
    rejects(op, [inp(F32, np.zeros((1, 3, 3, 2))), inp(F32, box), inp(T.BOOL, False)],
            [out(F32, (1, 3)), out(F32, (1, 2, 2))], "produces size 2 in dimension 1")
    rejects(op, [inp(Q8A, np.zeros((1, 3, 3, 2)), scale=0.1), inp(Q16A, box, scale=0.125),
                 inp(T.BOOL, False)], [out(Q8A, (1, 2), 0.1), out(Q16A, (1, 2, 2), 0.25)],
            "must have scale 0.125 and zero point 0")
    rejects(op, [inp(F32, np.zeros((1, 3, 3, 2))), inp(F32, [[4, 0, 0, 4]]), inp(T.BOOL, False)],
            [out(F32, (1, 2)), out(F32, (1, 2, 2))], "box 0 is .* must have x1 <= x2", ExecutionError)


# --------------------------------------------------------------------------------------------
# ROI_ALIGN and ROI_POOLING


def roi_align_f64(fmap, rois, batches, oh, ow, hs, ws, rh, rw):
    """Naive ROI_ALIGN (NHWC, float64), written from the spec's description."""
    _n, height, width, depth = fmap.shape
    res = np.zeros((len(rois), oh, ow, depth))
    for r, (x1, y1, x2, y2) in enumerate(rois.astype(np.float64)):
        x1, x2, y1, y2 = x1 / ws, x2 / ws, y1 / hs, y2 / hs
        bw, bh = max(x2 - x1, 1.0) / ow, max(y2 - y1, 1.0) / oh
        sw = rw if rw > 0 else math.ceil(bw)
        sh = rh if rh > 0 else math.ceil(bh)
        for i in range(oh):
            for j in range(ow):
                acc = np.zeros(depth)
                for a in range(sh):
                    for c in range(sw):
                        y = y1 + i * bh + (a + 0.5) * bh / sh
                        x = x1 + j * bw + (c + 0.5) * bw / sw
                        ylo, xlo = math.floor(y), math.floor(x)
                        fy, fx = y - ylo, x - xlo
                        if ylo >= height - 1:
                            ylo, fy = height - 1, 0.0
                        if xlo >= width - 1:
                            xlo, fx = width - 1, 0.0
                        yhi, xhi = min(ylo + 1, height - 1), min(xlo + 1, width - 1)
                        f = fmap[batches[r]].astype(np.float64)
                        acc += ((1 - fy) * ((1 - fx) * f[ylo, xlo] + fx * f[ylo, xhi])
                                + fy * ((1 - fx) * f[yhi, xlo] + fx * f[yhi, xhi]))
                res[r, i, j] = acc / (sh * sw)
    return res


def _roi(name, fmap, rois, batches, oh, ow, hs=1.0, ws=1.0, ratios=(0, 0), nchw=False, t=F32,
         out_scale=None, out_zp=None, in_scale=0.0, in_zp=0, roi_scale=None, out_dims=None):
    s = T.FLOAT16 if t == F16 else T.FLOAT32
    quant = t in (Q8A, Q8AS)
    ins = [inp(t, fmap, scale=in_scale, zp=in_zp),
           inp(Q16A if quant else t, rois, scale=roi_scale or (0.125 if quant else 0.0)),
           inp(I32, batches), inp(T.INT32, oh), inp(T.INT32, ow), inp(s, hs), inp(s, ws)]
    if name == "ROI_ALIGN":
        ins += [inp(T.INT32, ratios[0]), inp(T.INT32, ratios[1])]
    ins.append(inp(T.BOOL, nchw))
    depth = fmap.shape[1 if nchw else 3]
    dims = out_dims or ((len(rois), depth, oh, ow) if nchw else (len(rois), oh, ow, depth))
    return ins, [out(t, dims, in_scale if out_scale is None else out_scale,
                     in_zp if out_zp is None else out_zp)]


def _roi_case(rng):
    fmap = rng.uniform(-2, 2, (2, 6, 7, 3)).astype(np.float32)
    rois = np.array([[0, 0, 12, 10], [2, 4, 9, 11], [1, 1, 1.5, 1.5], [3.2, 0.6, 13.9, 11.7]],
                    np.float32)
    return fmap, rois, np.array([0, 1, 1, 0], np.int32)


@pytest.mark.parametrize("ratios", [(0, 0), (2, 3)])
def test_roi_align_float_matches_naive(ratios):
    fmap, rois, batches = _roi_case(np.random.default_rng(5))
    exp = roi_align_f64(fmap, rois, batches, 3, 2, 2.0, 2.0, *ratios)
    (got,) = run("ROI_ALIGN", *_roi("ROI_ALIGN", fmap, rois, batches, 3, 2, 2.0, 2.0, ratios))
    np.testing.assert_allclose(got, exp, atol=1e-5, rtol=1e-5)
    (g16,) = run("ROI_ALIGN", *_roi("ROI_ALIGN", fmap, rois, batches, 3, 2, 2.0, 2.0, ratios, t=F16))
    np.testing.assert_allclose(g16.astype(float), roi_align_f64(fmap.astype(np.float16), rois,
                                                                batches, 3, 2, 2, 2, *ratios),
                               atol=5e-3, rtol=5e-3)
    (gn,) = run("ROI_ALIGN", *_roi("ROI_ALIGN", fmap.transpose(0, 3, 1, 2), rois, batches, 3, 2,
                                   2.0, 2.0, ratios, nchw=True))
    np.testing.assert_array_equal(gn, got.transpose(0, 3, 1, 2))


@pytest.mark.parametrize("qt,zp", [(Q8A, 128), (Q8AS, 0)])
def test_roi_align_quantized_close_to_float(qt, zp):
    fmap, rois, batches = _roi_case(np.random.default_rng(6))
    q = np.clip(np.round(fmap / 0.02) + zp, zp - 128, zp + 127).astype(TYPE_INFO[qt].dtype)
    rq = np.round(rois * 8).astype(np.uint16)
    exp = roi_align_f64((q.astype(np.float64) - zp) * 0.02, rq / 8.0, batches, 3, 2, 2.0, 2.0, 2, 2)
    (got,) = run("ROI_ALIGN", *_roi("ROI_ALIGN", q, rq, batches, 3, 2,
                                    2.0, 2.0, (2, 2), t=qt, in_scale=0.02, in_zp=zp, out_scale=0.03,
                                    out_zp=zp))
    # the integer path rounds each interpolation weight to 1/255: within one output step
    assert np.abs((got.astype(float) - zp) * 0.03 - exp).max() <= 0.03 + 1e-9
    # a constant feature map is reproduced exactly (the weights of a sample sum to 255)
    const = np.full((1, 4, 4, 1), zp + 40, TYPE_INFO[qt].dtype)
    (c,) = run("ROI_ALIGN", *_roi("ROI_ALIGN", const, np.array([[0, 0, 20, 24]], np.uint16),
                                  np.array([0], np.int32), 2, 2, 1.0, 1.0, (2, 2), t=qt,
                                  in_scale=0.1, in_zp=zp))
    assert (c.astype(int) == zp + 40).all()


def roi_pool_f64(fmap, rois, batches, oh, ow, hs, ws, empty=0):
    _n, height, width, depth = fmap.shape
    res = np.zeros((len(rois), oh, ow, depth), fmap.dtype)
    for r, roi in enumerate(rois.astype(np.float64)):
        x1, y1, x2, y2 = (math.floor(v + 0.5) for v in (roi[0] / ws, roi[1] / hs, roi[2] / ws,
                                                              roi[3] / hs))
        bh, bw = max(y2 - y1 + 1, 1) / oh, max(x2 - x1 + 1, 1) / ow
        for i in range(oh):
            for j in range(ow):
                h0, h1 = min(math.floor(i * bh + y1), height), min(math.ceil((i + 1) * bh + y1), height)
                w0, w1 = min(math.floor(j * bw + x1), width), min(math.ceil((j + 1) * bw + x1), width)
                win = fmap[batches[r], h0:h1, w0:w1]
                res[r, i, j] = win.reshape(-1, depth).max(axis=0) if win.size else empty
    return res


def test_roi_pooling_matches_naive_and_layouts_agree():
    rng = np.random.default_rng(7)
    fmap = rng.uniform(-2, 2, (2, 6, 7, 3)).astype(np.float32)
    # the last region sits on the far corner of the map: its bins are empty (0 / the zero point)
    rois = np.array([[0, 0, 12, 10], [2, 4, 9, 11], [2, 2, 2, 2], [4, 0, 13, 11], [14, 12, 14, 12]],
                    np.float32)
    batches = np.array([0, 1, 1, 0, 1], np.int32)
    exp = roi_pool_f64(fmap, rois, batches, 2, 3, 2.0, 2.0)
    (got,) = run("ROI_POOLING", *_roi("ROI_POOLING", fmap, rois, batches, 2, 3, 2.0, 2.0))
    np.testing.assert_array_equal(got, exp)
    (gn,) = run("ROI_POOLING", *_roi("ROI_POOLING", fmap.transpose(0, 3, 1, 2), rois, batches, 2, 3,
                                     2.0, 2.0, nchw=True))
    np.testing.assert_array_equal(gn, got.transpose(0, 3, 1, 2))
    q = np.round(fmap * 30 + 128).astype(np.uint8)
    (gq,) = run("ROI_POOLING", *_roi("ROI_POOLING", q, (rois * 8).astype(np.uint16), batches, 2, 3,
                                     2.0, 2.0, t=Q8A, in_scale=1 / 30, in_zp=128))
    np.testing.assert_array_equal(gq, roi_pool_f64(q, rois, batches, 2, 3, 2.0, 2.0, empty=128))
    assert (gq[4] == 128).all() and (got[4] == 0).all()


@pytest.mark.parametrize("name", ["ROI_ALIGN", "ROI_POOLING"])
def test_roi_rejections(name):
    fmap, rois, batches = _roi_case(np.random.default_rng(8))
    rejects(name, *_roi(name, fmap, rois, batches, 0, 2), "is 0, but the output height must be > 0")
    rejects(name, *_roi(name, fmap, rois, batches, 2, 2, ws=-1.0), "the width stride must be > 0")
    rejects(name, *_roi(name, fmap, rois[:, :3], batches, 2, 2), r"region length \[x1, y1, x2, y2\]")
    rejects(name, *_roi(name, fmap, rois, batches[:3], 2, 2),
            "has 3 in dimension 0, but the number of regions is 4")
    rejects(name, *_roi(name, fmap[0][None, None], rois, batches, 2, 2, out_dims=(4, 2, 2, 7)),
            "feature map must be a 4-D tensor")
    rejects(name, *_roi(name, fmap, rois, batches, 2, 2, out_dims=(4, 2, 3, 3)),
            "produces size 2 in dimension 2")
    q = np.zeros(fmap.shape, np.uint8)
    rejects(name, *_roi(name, q, (rois * 8).astype(np.uint16), batches, 2, 2, t=Q8A, in_scale=0.1,
                        roi_scale=0.25), "must have scale 0.125 and zero point 0")
    # run time
    rejects(name, *_roi(name, fmap, rois, np.array([0, 2, 1, 0], np.int32), 2, 2, 2.0, 2.0),
            r"region 1 has batch index 2, outside \[0, 2\)", ExecutionError)
    rejects(name, *_roi(name, fmap, rois, batches, 2, 2, hs=0.5),
            "region 0 is .* does not lie inside the 6x7 feature map", ExecutionError)
    bad = rois.copy()
    bad[2] = [3, 1, 1, 2]
    rejects(name, *_roi(name, fmap, bad, batches, 2, 2, 2.0, 2.0), "region 2 is .* must have x1 <= x2",
            ExecutionError)
    rejects(name, *_roi(name, fmap, -rois, batches, 2, 2, 2.0, 2.0), "region 0 is .* does not lie inside",
            ExecutionError)
    rejects(name, [dict(d, dims=(0, 0, 0, 0)) if k == 0 else d
                   for k, d in enumerate(_roi(name, np.zeros((2, 0, 7, 3), np.float32), rois,
                                              batches, 2, 2)[0])],
            _roi(name, fmap, rois, batches, 2, 2, out_dims=(0, 2, 2, 0))[1],
            "input 0 has 0 height, but the feature map must not be empty", ExecutionError)


def test_roi_align_specific_rejections():
    fmap, rois, batches = _roi_case(np.random.default_rng(9))
    rejects("ROI_ALIGN", *_roi("ROI_ALIGN", fmap, rois, batches, 2, 2, ratios=(-1, 0)),
            "height sampling ratio must be >= 0")
    q = np.zeros(fmap.shape, np.uint8)
    rejects("ROI_ALIGN", *_roi("ROI_ALIGN", q, (rois * 8).astype(np.uint16), batches, 2, 2, 2.0,
                               2.0, t=Q8A, in_scale=1.0, out_scale=0.001, ratios=(1, 1)),
            "requantization multiplier of region 0 is .* in \\(0, 1\\)", ExecutionError)
    rejects("ROI_POOLING", *_roi("ROI_POOLING", q, (rois * 8).astype(np.uint16), batches, 2, 2,
                                 t=Q8A, in_scale=0.1, out_scale=0.2),
            "spec requires the same as output 0")


def test_roi_zero_regions():
    fmap = np.ones((1, 2, 2, 1), np.float32)
    for name in ("ROI_ALIGN", "ROI_POOLING"):
        ins, outs = _roi(name, fmap, np.zeros((0, 4), np.float32), np.zeros(0, np.int32), 2, 2,
                         out_dims=(0, 2, 2, 1))
        ins[1]["dims"], ins[2]["dims"] = (0, 4), (0,)
        (got,) = run(name, ins, outs)
        assert got.shape == (0, 2, 2, 1)


def test_signatures_reject_mixed_types():
    # float16 scalars are required with float16 tensors (the reference's rule)
    fmap, rois, batches = _roi_case(np.random.default_rng(10))
    ins, outs = _roi("ROI_POOLING", fmap.astype(np.float16), rois, batches, 2, 2, t=F16)
    ins[5]["type"] = T.FLOAT32
    model, _ = build("ROI_POOLING", ins, outs)
    with pytest.raises(ModelError, match="match none of its signatures"):
        validate_model(model)
