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
    the model itself (the host runs the operations the accelerator does not).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

from nnaccel.errors import InputError

FORMAT = "nnaccel-package"
#: Bumped whenever the package layout or the meaning of a manifest field changes.
VERSION = 1
_MEMBERS = ("manifest.json", "program.bin", "consts.bin", "listing.s", "model.json")
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

    # ------------------------------------------------------------------ bytes
    def to_bytes(self) -> bytes:
        m = dict(self.manifest)
        m["sha256"] = {"program.bin": hashlib.sha256(self.program).hexdigest(),
                       "consts.bin": hashlib.sha256(self.consts).hexdigest(),
                       "model.json": hashlib.sha256(self.model_json).hexdigest()}
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for name, data in (("manifest.json", json.dumps(m, indent=1, sort_keys=True).encode()),
                               ("program.bin", self.program), ("consts.bin", self.consts),
                               ("listing.s", self.listing.encode()), ("model.json", self.model_json)):
                info = zipfile.ZipInfo(name, date_time=_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, data)
        return buf.getvalue()

    def save(self, path) -> None:
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "the package") -> Package:
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                names = set(z.namelist())
                missing = [n for n in _MEMBERS if n not in names]
                if missing:
                    raise PackageError(f"The package {source} lacks {', '.join(missing)}; it is not an "
                                       f"nnaccel program package.")
                parts = {n: z.read(n) for n in _MEMBERS}
        except (zipfile.BadZipFile, EOFError, OSError, zipfile.LargeZipFile) as e:
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
        for n in ("program.bin", "consts.bin", "model.json"):
            if sums.get(n) != hashlib.sha256(parts[n]).hexdigest():
                raise PackageError(f"The package {source} is damaged: {n} does not match its checksum.")
        return cls(manifest, parts["program.bin"], parts["consts.bin"], parts["listing.s"].decode(),
                   parts["model.json"])

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
        from nnaccel.formats import model_from_dict
        return model_from_dict(json.loads(self.model_json))

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


def is_package(path) -> bool:
    """True when ``path`` starts like a package (a ZIP archive)."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"PK\x03\x04"
    except OSError:
        return False
