"""The program package: what the compiler emits and the runtime loads.

One file (a ZIP archive with fixed timestamps, so compiling the same model twice gives the same
bytes) holding:

``manifest.json``
    format name and version, the hardware configuration, the external-memory map (tensor
    addresses, the constant image's base and size), the accelerator segments (their operations,
    input / output tensors, instruction ranges and layers) and the host operations;
``program.bin``
    the instruction streams of every segment, one after the other (16 little-endian bytes per
    instruction, each segment ending in FINISH);
``consts.bin``
    the constant image (weights in tile order, vector parameters, lookup tables);
``listing.s``
    the assembly listing, each instruction commented with the operation it comes from;
``model.json``
    the model itself (the host runs the operations the accelerator does not), a model object of
    the model-file schema (:mod:`nnaccel.formats`) whose constant operands have an empty ``data``
    list and ``"data_bytes": {"offset": o, "bytes": n}`` instead: their values are the ``n``
    bytes at ``o`` of ``model.bin``;
``model.bin``
    the constants' values one after the other, each in its operand type's element type
    (little-endian), row-major.

:func:`model_members` writes the last two, :meth:`Package.model` reads them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import math
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nnaccel.errors import InputError
from nnaccel.model import MAX_TENSOR_BYTES, TYPE_INFO, as_operand_array

FORMAT = "nnaccel-package"
#: Bumped whenever the package layout or the meaning of a manifest field changes.
VERSION = 2
_MEMBERS = ("manifest.json", "program.bin", "consts.bin", "listing.s", "model.json", "model.bin")
#: The binary members, each with a checksum in the manifest.
_SUMMED = ("program.bin", "consts.bin", "model.json", "model.bin")
#: The key of a constant operand of ``model.json`` that places its values in ``model.bin``.
DATA_KEY = "data_bytes"
_DATE = (1980, 1, 1, 0, 0, 0)


class PackageError(InputError):
    """A package that cannot be used (unreadable, truncated, another format version, damaged)."""


@dataclass
class Package:
    manifest: dict
    program: bytes
    consts: bytes
    listing: str
    model_json: bytes
    model_data: bytes = b""

    # ------------------------------------------------------------------ bytes
    def _members(self) -> dict:
        return {"program.bin": self.program, "consts.bin": self.consts, "listing.s": self.listing.encode(),
                "model.json": self.model_json, "model.bin": self.model_data}

    def to_bytes(self) -> bytes:
        m = dict(self.manifest)
        members = self._members()
        m["sha256"] = {n: hashlib.sha256(members[n]).hexdigest() for n in _SUMMED}
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for name in _MEMBERS:
                data = json.dumps(m, indent=1, sort_keys=True).encode() if name == "manifest.json" else members[name]
                info = zipfile.ZipInfo(name, date_time=_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, data)
        return buf.getvalue()

    def save(self, path) -> None:
        from .ioutil import write_atomic
        write_atomic(path, self.to_bytes(), "package file")

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "the package") -> Package:
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                names = set(z.namelist())
                missing = [n for n in _MEMBERS if n not in names]
                if missing:
                    raise PackageError(f"The package {source} lacks {', '.join(missing)}; it is not an "
                                       f"nnaccel program package.")
                for info in z.infolist():
                    if info.filename in _MEMBERS and info.file_size > MAX_TENSOR_BYTES:
                        raise PackageError(f"The package {source} has a {info.filename} of {info.file_size} "
                                           f"bytes, above the limit of {MAX_TENSOR_BYTES} bytes.")
                parts = {n: z.read(n) for n in _MEMBERS}
        except (zipfile.BadZipFile, EOFError, OSError, zipfile.LargeZipFile, ValueError, NotImplementedError,
                RuntimeError, zlib.error) as e:
            raise PackageError(f"The package {source} is damaged or truncated ({e}).") from None
        try:
            manifest = json.loads(parts["manifest.json"])
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise PackageError(f"The package {source} has an unreadable manifest ({e}).") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise PackageError(f"The package {source} is not an nnaccel program package.")
        if manifest.get("version") != VERSION:
            raise PackageError(f"The package {source} has format version {manifest.get('version')}, but this "
                               f"runtime reads version {VERSION}; compile the model again.")
        sums = manifest.get("sha256", {})
        for n in _SUMMED:
            if not isinstance(sums, dict) or sums.get(n) != hashlib.sha256(parts[n]).hexdigest():
                raise PackageError(f"The package {source} is damaged: {n} does not match its checksum.")
        try:
            listing = parts["listing.s"].decode()
            model_doc = json.loads(parts["model.json"])
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise PackageError(f"The package {source} has an unreadable listing or model ({e}).") from None
        if not isinstance(model_doc, dict):
            raise PackageError(f"The package {source} holds a model.json that is not a model object.")
        check_manifest(manifest, len(parts["program.bin"]) // 16, len(parts["consts.bin"]), source)
        return cls(manifest, parts["program.bin"], parts["consts.bin"], listing, parts["model.json"],
                   parts["model.bin"])

    @classmethod
    def load(cls, path) -> Package:
        p = Path(path)
        try:
            data = p.read_bytes()
        except OSError as e:
            raise PackageError(f"The package {path} cannot be read ({e.strerror}).") from None
        return cls.from_bytes(data, str(path))

    # ------------------------------------------------------------------ views
    def model(self):
        """The package's model, validated (:func:`nnaccel.validate.validate_model`) and checked
        against the manifest's operation and tensor indexes."""
        from nnaccel.errors import ModelError
        from nnaccel.formats import model_from_dict
        from nnaccel.validate import validate_model
        doc = json.loads(self.model_json)
        model = model_from_dict(doc)
        _place_constants(model, doc, self.model_data)
        try:
            validate_model(model)
        except ModelError as e:
            raise PackageError(f"The package's model is not a valid NNAPI model: {e}") from None
        sg, m = model.main, self.manifest
        for seg in m["segments"]:
            for i in seg["operations"]:
                if i >= len(sg.operations):
                    raise PackageError(f"The package's segment {seg['index']} names operation {i}, but its "
                                       f"model has {len(sg.operations)} operations.")
        for key in ("accelerator_ops", "host_ops"):
            for o in m[key]:
                if o["index"] >= len(sg.operations):
                    raise PackageError(f"The package lists operation {o['index']} in {key}, but its model "
                                       f"has {len(sg.operations)} operations.")
        for k, t in m["tensors"].items():
            j = int(k)
            if j >= len(sg.operands):
                raise PackageError(f"The package places operand {j}, but its model has {len(sg.operands)} "
                                   f"operands.")
            size = math.prod(t["shape"]) * TYPE_INFO[sg.operands[j].type].dtype.itemsize
            if size != t["bytes"]:
                raise PackageError(f"The package places operand {j} as {t['bytes']} bytes, but its shape "
                                   f"{t['shape']} and type {sg.operands[j].type.name} make {size}.")
        return model

    def config(self):
        import dataclasses

        from nnaccel.hwconfig import HwConfig, config_from_dict
        # A field the package does not name (it was written before the field existed) takes the
        # field's default, the behaviour of the hardware it was compiled for, not a preset's value.
        d = {f.name: f.default for f in dataclasses.fields(HwConfig)}
        d.update(self.manifest["config"])
        return config_from_dict(d, "The package's configuration")

    def segment_words(self, seg: dict) -> bytes:
        a, n = seg["program"]["offset"], seg["program"]["count"]
        return self.program[16 * a:16 * (a + n)]


def model_members(model) -> tuple[bytes, bytes]:
    """``model.json`` and ``model.bin`` of ``model`` (the example data it carries left out)."""
    from nnaccel.formats import model_to_dict
    blob = bytearray()
    placed = []

    def bare(sg):
        ops, where = [], {}
        for i, o in enumerate(sg.operands):
            if o.is_constant and o.data is not None and np.size(o.data):
                raw = np.asarray(o.data).reshape(-1).astype(TYPE_INFO[o.type].dtype.newbyteorder("<")).tobytes()
                where[i] = {"offset": len(blob), "bytes": len(raw)}
                blob.extend(raw)
                o = dataclasses.replace(o, data=None)
            ops.append(o)
        placed.append(where)
        return dataclasses.replace(sg, operands=ops)

    d = model_to_dict(dataclasses.replace(model, main=bare(model.main), referenced=[bare(r) for r in model.referenced],
                                          stored_inputs=None, stored_outputs=None))
    for sgd, where in zip([d["main"], *d["referenced"]], placed):
        for i, ref in where.items():
            sgd["operands"][i][DATA_KEY] = ref
    return json.dumps(d, sort_keys=True).encode(), bytes(blob)


def _place_constants(model, doc: dict, blob: bytes) -> None:
    """Gives the constant operands of ``model`` (read from ``doc``, its ``model.json``) their
    values from ``blob`` (``model.bin``), checking every ``data_bytes`` entry."""
    refs = doc.get("referenced", [])
    for label, sgd, sg in zip(["main", *(f"referenced[{k}]" for k in range(len(refs)))],
                              [doc["main"], *refs], [model.main, *model.referenced]):
        for i, (od, o) in enumerate(zip(sgd.get("operands", []), sg.operands)):
            ref = od.get(DATA_KEY)
            if ref is None:
                continue
            where = f"operand {i} of subgraph {label}"
            dt = TYPE_INFO[o.type].dtype.newbyteorder("<")
            if (not isinstance(ref, dict) or any(not isinstance(ref.get(k), int) or isinstance(ref.get(k), bool)
                                                 or ref[k] < 0 for k in ("offset", "bytes"))):
                raise PackageError(f"The package's model gives {where} {DATA_KEY} {str(ref)[:60]}, which is not "
                                   f"an object with a non-negative integer offset and bytes.")
            if ref["offset"] + ref["bytes"] > len(blob) or ref["bytes"] % dt.itemsize:
                raise PackageError(f"The package's model places the values of {where} at bytes {ref['offset']} .. "
                                   f"{ref['offset'] + ref['bytes']} of model.bin, which has {len(blob)} bytes and "
                                   f"{dt.itemsize}-byte elements of type {o.type.name}.")
            if not o.is_constant or np.size(o.data):
                raise PackageError(f"The package's model gives {where} both {DATA_KEY} and values"
                                   f"{'' if o.is_constant else ', though it is not a constant'}.")
            flat = np.frombuffer(blob, np.uint8 if dt.kind == "b" else dt, ref["bytes"] // dt.itemsize, ref["offset"])
            flat = flat != 0 if dt.kind == "b" else flat.astype(dt.newbyteorder("="))
            o.data = as_operand_array(o.type, flat, o.dimensions)


def check_manifest(m: dict, instructions: int, const_bytes: int, source: str = "the package") -> None:
    """Checks the manifest fields the runtime and the report read (types, ranges, the memory map
    within :data:`~nnaccel.model.MAX_TENSOR_BYTES`), so that a damaged or hand-edited package is a
    :class:`PackageError`, not a crash."""
    def bad(what):
        raise PackageError(f"The package {source} has a damaged manifest: {what}.")

    def nat(v, what, hi=None):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0 or (hi is not None and v > hi):
            bad(f"{what} is {v!r}, not an integer from 0 to {hi if hi is not None else 'any'}")
        return v

    def table(v, what, keys):
        if not isinstance(v, dict) or any(k not in v for k in keys):
            bad(f"{what} is not an object with the fields {', '.join(keys)}")
        return v

    def nats(v, what):
        if not isinstance(v, list):
            bad(f"{what} is not a list")
        return [nat(x, f"an entry of {what}") for x in v]

    if not isinstance(m.get("config"), dict):
        bad("config is not an object")
    if not isinstance(m.get("model"), str):
        bad("model is not a name")
    mem = table(m.get("memory"), "memory", ("base", "size", "const_base"))
    end = nat(mem["base"], "memory.base") + nat(mem["size"], "memory.size")
    if end > MAX_TENSOR_BYTES:
        bad(f"its external memory of {end} bytes is above the limit of {MAX_TENSOR_BYTES} bytes")
    if nat(mem["const_base"], "memory.const_base") + const_bytes > end:
        bad(f"the {const_bytes} constant bytes at {mem['const_base']} lie outside the {end}-byte memory")
    tensors = m.get("tensors")
    if not isinstance(tensors, dict):
        bad("tensors is not an object")
    for k, t in tensors.items():
        if not str(k).isdigit():
            bad(f"tensor key {k!r} is not an operand index")
        table(t, f"tensor {k}", ("addr", "bytes", "shape"))
        if nat(t["addr"], f"tensor {k} addr") + nat(t["bytes"], f"tensor {k} bytes") > end:
            bad(f"tensor {k} lies outside the {end}-byte memory")
        shape = nats(t["shape"], f"tensor {k} shape")
        if math.prod(shape) > t["bytes"]:
            bad(f"tensor {k} has shape {shape} but {t['bytes']} bytes")
    for key in ("accelerator_ops", "host_ops"):
        ops = m.get(key)
        if not isinstance(ops, list):
            bad(f"{key} is not a list")
        for o in ops:
            table(o, f"an entry of {key}", ("index", "type"))
            nat(o["index"], f"an index of {key}")
            if not isinstance(o["type"], str):
                bad(f"an operation type of {key} is not a name")
    if not isinstance(m.get("fused", {}), dict):
        bad("fused is not an object")
    segs = m.get("segments")
    if not isinstance(segs, list):
        bad("segments is not a list")
    for seg in segs:
        table(seg, "a segment", ("index", "inputs", "outputs", "operations", "program", "layers"))
        nat(seg["index"], "a segment index")
        where = f"segment {seg['index']}"
        if not nats(seg["operations"], f"{where} operations"):
            bad(f"{where} has no operations")
        for j in nats(seg["inputs"], f"{where} inputs") + nats(seg["outputs"], f"{where} outputs"):
            if str(j) not in tensors:
                bad(f"{where} reads or writes operand {j}, which has no tensor")
        prog = table(seg["program"], f"{where} program", ("offset", "count"))
        count = nat(prog["count"], f"{where} instruction count")
        if nat(prog["offset"], f"{where} instruction offset") + count > instructions:
            bad(f"{where} names instructions beyond the {instructions} of program.bin")
        if not isinstance(seg["layers"], list):
            bad(f"{where} layers is not a list")
        for lay in seg["layers"]:
            table(lay, f"a layer of {where}", ("first", "last", "op", "pass", "type"))
            if nat(lay["first"], "a layer's first instruction") > nat(lay["last"], "a layer's last instruction",
                                                                       max(count - 1, 0)):
                bad(f"a layer of {where} ends before it starts")
            if "own" in lay and not lay["first"] <= nat(lay["own"], "a layer's own first instruction") <= lay["last"]:
                bad(f"a layer of {where} names its own first instruction outside it")
            nat(lay["op"], "a layer's operation")
            nat(lay["pass"], "a layer's pass")
            if not isinstance(lay["type"], str):
                bad(f"a layer type of {where} is not a name")


def is_package(path) -> bool:
    """True when ``path`` starts like a package (a ZIP archive)."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"PK\x03\x04"
    except OSError:
        return False
