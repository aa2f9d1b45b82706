"""Files: input read within a size bound; output written so that no result is lost silently.

:func:`read_input` reads a file nnaccel takes as input, decompressing a ``.gz`` one, and stops with
one sentence when the result would pass :data:`~nnaccel.model.MAX_TENSOR_BYTES` (a gzip bomb) or
the file is truncated or damaged.

Every file nnaccel writes as a result (``--json``, ``--html``, ``--outputs``, ``--report``,
``--trace``, ``-o`` of ``compile`` / ``build`` / ``import`` / ``isa``, packages, hardware
configurations, model files) goes through :func:`write_atomic`: the bytes go to a temporary file
in the same folder, which is then renamed over the target, so a reader never sees a partial file and
a failed or interrupted write leaves none behind (the old file, if any, stays as it was).

:func:`check_writable` is called before the work that produces a file starts (the command line does
it for every output option it declares, see ``nnaccel.cli_models.add_output_arg``), so that a run
of hours never ends with results it cannot write. Both raise :class:`~nnaccel.errors.InputError`
with one sentence (exit 2 on the command line).
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from pathlib import Path

from .errors import InputError


def read_input(path, what: str = "input file") -> bytes:
    """The bytes of ``path``, gunzipped when its name ends in ``.gz``. Raises :class:`InputError`
    (one sentence naming ``what``) when the file is missing, a folder, unreadable, truncated or not
    gzip, or when it holds (after decompression) more than :data:`~nnaccel.model.MAX_TENSOR_BYTES`
    bytes; a compressed file is decompressed in chunks, so a gzip bomb stops at the limit."""
    import gzip
    import zlib

    from .model import MAX_TENSOR_BYTES as LIMIT
    p = Path(path)
    try:
        if p.suffix != ".gz":
            size = p.stat().st_size
            if size > LIMIT and p.is_file():
                raise InputError(f"The {what} {path} is {size} bytes, above the limit of {LIMIT} bytes.")
            return p.read_bytes()
        chunks, total = [], 0
        with gzip.open(p, "rb") as f:
            while chunk := f.read(1 << 20):
                total += len(chunk)
                if total > LIMIT:
                    raise InputError(f"The {what} {path} decompresses to more than the limit of {LIMIT} "
                                     f"bytes.")
                chunks.append(chunk)
        return b"".join(chunks)
    except FileNotFoundError:
        raise InputError(f"The {what} {path} does not exist.") from None
    except IsADirectoryError:
        raise InputError(f"The {what} {path} is a folder.") from None
    except EOFError:
        raise InputError(f"The {what} {path} is truncated: its compressed data ends early.") from None
    except zlib.error as e:
        raise InputError(f"The {what} {path} is damaged: its compressed data is invalid ({e}).") from None
    except OSError as e:  # gzip.BadGzipFile is one
        raise InputError(f"The {what} {path} cannot be read ({e.strerror or e}).") from None


def check_writable(path, what: str = "output file", folder: bool = False) -> None:
    """Raises :class:`InputError` unless ``path`` can be created or replaced: its folder exists and
    is writable, and it is not a folder itself. With ``folder``, ``path`` is an output folder: it is
    a writable folder, or it can be created (its nearest existing parent is a writable folder)."""
    p = Path(path)
    if folder:
        if p.exists() and not p.is_dir():
            raise InputError(f"The {what} {path} is a file, not a folder.")
        q = p
        while not q.exists() and q != q.parent:
            q = q.parent
        if not q.is_dir():
            raise InputError(f"The {what} {path} cannot be created: {q} is not a folder.")
        if not os.access(q, os.W_OK | os.X_OK):
            raise InputError(f"The {what} {path} cannot be written: permission denied.")
        return
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise InputError(f"The {what} {path} is a folder.")
    if not parent.is_dir():
        raise InputError(f"The {what} {path} cannot be written: the folder {parent} does not exist.")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(f"The {what} {path} cannot be written: permission denied.")


def write_atomic(path, data: bytes | str, what: str = "output file") -> None:
    """Writes ``data`` (text is UTF-8 encoded) to a temporary file beside ``path``, then renames it
    over ``path``. Any failure, an interrupt included, removes the temporary file; an
    :class:`OSError` becomes an :class:`InputError` naming the file."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    p = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent if str(p.parent) else ".")
    except OSError as e:
        raise InputError(f"The {what} {path} cannot be written ({e.strerror}).") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, p)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise InputError(f"The {what} {path} cannot be written ({e.strerror or e}).") from None
        raise


def write_json(path, doc, what: str = "output file", indent: int | None = 1, default=None) -> None:
    """:func:`write_atomic` of ``doc`` as JSON (``indent``; ``default`` as for :func:`json.dumps`),
    ending in a newline."""
    write_atomic(path, json.dumps(doc, indent=indent, default=default) + "\n", what)


def npz_bytes(arrays: dict) -> bytes:
    """An ``.npz`` archive of ``arrays`` (name -> array) as bytes."""
    import numpy as np
    buf = io.BytesIO()
    np.savez(buf, **{k: np.asarray(a) for k, a in arrays.items()})
    return buf.getvalue()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


__all__ = ["check_writable", "npz_bytes", "read_input", "write_atomic", "write_json"]
