"""TFLite sparse tensors (``Tensor.sparsity`` of TFLite's ``schema.fbs``): decoding and encoding.

A sparse tensor of dense shape ``shape`` (rank ``n``) with ``k`` blocked dimensions is stored as a
tree of ``n + k`` levels:

* ``block_map[j]`` names the original dimension that block dimension ``n + j`` splits; that
  dimension's outer size becomes ``shape[d] / block_size`` and the block dimension's size is the
  block size;
* ``traversal_order`` (``n + k`` entries, a permutation of ``0 .. n + k - 1``) orders the levels:
  level ``l`` walks expanded dimension ``traversal_order[l]``;
* ``dim_metadata[l]`` describes level ``l``: ``DENSE`` with ``dense_size`` (every index is
  present), or ``SPARSE_CSR`` with ``array_segments`` and ``array_indices``: the children of the
  parent at position ``p`` are ``array_indices[array_segments[p] : array_segments[p + 1]]``.

Positions number the nodes of one level: a DENSE child ``i`` of position ``p`` has position
``p * dense_size + i``, a SPARSE_CSR child has its index into ``array_indices``. The buffer holds
the values of the leaves in depth-first order (every leaf, zero or not, under DENSE levels).
This is the walk of LiteRT's ``FormatConverter::SparseToDense``; both directions below follow it,
level by level with NumPy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DENSE, SPARSE_CSR = "DENSE", "SPARSE_CSR"


class SparsityError(ValueError):
    """The sparsity parameters contradict the tensor's shape or themselves."""


@dataclass(frozen=True)
class Level:
    """One level of the tree: DENSE with ``dense_size``, or SPARSE_CSR with its two arrays."""

    format: str
    dense_size: int = 0
    segments: np.ndarray | None = None
    indices: np.ndarray | None = None


def expanded_shape(shape, traversal_order, block_map, levels) -> tuple[list[int], list[int]]:
    """Sizes of the ``n + k`` expanded dimensions and the ``k`` block sizes.

    A block dimension must be DENSE (its ``dense_size`` is the block size, as LiteRT requires)."""
    n, k = len(shape), len(block_map)
    if sorted(traversal_order) != list(range(n + k)):
        raise SparsityError(f"traversal_order {list(traversal_order)} is not a permutation of the "
                            f"{n + k} dimensions (rank {n} plus {k} block dimensions)")
    if len(levels) != n + k:
        raise SparsityError(f"dim_metadata has {len(levels)} entries, not {n + k}")
    if len(set(block_map)) != k or any(not 0 <= d < n for d in block_map):
        raise SparsityError(f"block_map {list(block_map)} does not name distinct dimensions of rank {n}")
    level_of = {int(d): lv for d, lv in zip(traversal_order, levels)}
    blocks = []
    for j in range(k):
        lv = level_of[n + j]
        if lv.format != DENSE or lv.dense_size < 1 or shape[block_map[j]] % lv.dense_size:
            raise SparsityError(f"block dimension {j} of dimension {block_map[j]} (size "
                                f"{shape[block_map[j]]}) is not DENSE with a block size dividing it")
        blocks.append(lv.dense_size)
    sizes = [int(s) for s in shape] + blocks
    for j, d in enumerate(block_map):
        sizes[d] //= blocks[j]
    for d, lv in level_of.items():
        if lv.format == DENSE and lv.dense_size != sizes[d]:
            raise SparsityError(f"the DENSE level of dimension {d} has dense_size {lv.dense_size}, but "
                                f"the dimension has {sizes[d]} entries")
    return sizes, blocks


def densify(shape, traversal_order, block_map, levels, values: np.ndarray) -> np.ndarray:
    """The dense array of ``shape`` that the sparse encoding describes (zeros elsewhere)."""
    shape = tuple(int(s) for s in shape)
    sizes, blocks = expanded_shape(shape, traversal_order, block_map, levels)
    n = len(shape)
    pos = np.zeros(1, np.int64)
    coords: list[np.ndarray] = []
    for lv, d in zip(levels, traversal_order):
        if lv.format == DENSE:
            s = lv.dense_size
            coords = [np.repeat(c, s) for c in coords] + [np.tile(np.arange(s), len(pos))]
            pos = (pos[:, None] * s + np.arange(s)).reshape(-1)
            continue
        seg, idx = lv.segments.astype(np.int64), lv.indices.astype(np.int64)
        if pos.size and pos.max() + 1 >= len(seg):
            raise SparsityError(f"array_segments of dimension {d} has {len(seg)} entries, but the level "
                                f"above has {int(pos.max()) + 1} positions")
        lo, hi = seg[pos], seg[pos + 1]
        if np.any(hi < lo) or (len(seg) and (seg[0] < 0 or seg.max() > len(idx))):
            raise SparsityError(f"array_segments of dimension {d} are not non-decreasing offsets into its "
                                f"{len(idx)} array_indices")
        counts = hi - lo
        child = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts) + np.arange(counts.sum())
        if child.size and (idx[child].min() < 0 or idx[child].max() >= sizes[d]):
            raise SparsityError(f"array_indices of dimension {d} leave its {sizes[d]} entries")
        coords = [np.repeat(c, counts) for c in coords] + [idx[child]]
        pos = child
    if len(pos) != values.size:
        raise SparsityError(f"the sparsity parameters describe {len(pos)} stored values, but the buffer "
                            f"holds {values.size}")
    orig = [np.zeros(len(pos), np.int64) for _ in range(n)]
    inner = [np.zeros(len(pos), np.int64) for _ in block_map]
    for c, d in zip(coords, traversal_order):
        if d < n:
            orig[d] = c
        else:
            inner[d - n] = c
    for j, d in enumerate(block_map):
        orig[d] = orig[d] * blocks[j] + inner[j]
    out = np.zeros(shape, values.dtype)
    out[tuple(orig)] = values.reshape(-1)
    return out


def sparsify(dense: np.ndarray, traversal_order=None, block_map=(), block_sizes=(), formats=None,
             index_dtype=np.int32) -> tuple[list[Level], np.ndarray]:
    """Encodes ``dense``: the levels and the stored values (the inverse of :func:`densify`).

    A SPARSE_CSR level keeps the children whose subtree holds a non-zero value. Defaults: no blocks,
    the dimensions in order, every level DENSE except the last (SPARSE_CSR)."""
    dense = np.asarray(dense)
    n, k = dense.ndim, len(block_map)
    traversal_order = list(range(n + k)) if traversal_order is None else list(traversal_order)
    formats = [DENSE] * (n + k - 1) + [SPARSE_CSR] if formats is None else list(formats)
    # expanded array: each blocked dimension d split into its outer axis and, right after it, its
    # block axis
    shape_x, outer_axis, block_axis = [], {}, {}
    for d, size in enumerate(dense.shape):
        outer_axis[d] = len(shape_x)
        if d in block_map:
            j = list(block_map).index(d)
            block_axis[j] = len(shape_x) + 1
            shape_x += [size // block_sizes[j], block_sizes[j]]
        else:
            shape_x.append(size)
    x = dense.reshape(shape_x)
    perm = [outer_axis[t] if t < n else block_axis[t - n] for t in traversal_order]
    x = x.transpose(perm)
    nonzero = x != 0
    levels: list[Level] = []
    flat = np.zeros(1, np.int64)  # the nodes of the current level: flat index into x's leading axes
    for lv, (fmt, s) in enumerate(zip(formats, x.shape)):
        any_below = nonzero.reshape(x.shape[:lv + 1] + (-1,)).any(axis=-1).reshape(-1)
        flat_children = (flat[:, None] * s + np.arange(s)).reshape(-1)
        if fmt == DENSE:
            levels.append(Level(DENSE, dense_size=int(s)))
            flat = flat_children
            continue
        keep = any_below[flat_children].reshape(len(flat), s)
        counts = keep.sum(axis=1)
        segments = np.concatenate([[0], np.cumsum(counts)])  # parents are numbered 0, 1, ... in order
        indices = np.nonzero(keep)[1]
        top = max(int(segments[-1]), s - 1)
        if top > np.iinfo(index_dtype).max:
            raise ValueError(f"level {lv} needs indices up to {top}, more than {np.dtype(index_dtype).name} holds")
        levels.append(Level(SPARSE_CSR, segments=segments.astype(index_dtype),
                            indices=indices.astype(index_dtype)))
        flat = flat_children[keep.reshape(-1)]
    return levels, x.reshape(-1)[flat]
