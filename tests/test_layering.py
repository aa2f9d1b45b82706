"""Who may import whom (README / docs: the layering rules), checked on every import of every module,
also the ones inside functions:

* core ``nnaccel/`` imports nothing of ours, except the CLI modules ``nnaccel/cli*.py``, which may
  import anything; nothing outside the CLI imports it, and no CLI module imports ``nnaccel.cli``
  (the entry point imports them);
* compiler -> core; sim -> core, and its RTL runner (``sim/rtl_runner.py``,
  ``sim/tb/``) also -> hw; hw -> core; firmware -> core, sim; boards -> core, hw, sim.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Source folder -> the package it installs as (setup.py's map).
FOLDERS = {"nnaccel": "nnaccel", "compiler": "nnaccel.compiler", "sim": "nnaccel.sim", "hw": "nnaccel.hw",
           "firmware": "nnaccel.firmware", "boards": "nnaccel.boards", "explore": "nnaccel.explore"}
LAYERS = ("compiler", "sim", "hw", "firmware", "boards", "explore")
ALLOWED = {"core": {"core"}, "compiler": {"core", "compiler"}, "sim": {"core", "sim"},
           "sim-rtl": {"core", "sim", "sim-rtl", "hw"}, "hw": {"core", "hw"},
           "firmware": {"core", "sim", "sim-rtl", "firmware"},
           "boards": {"core", "hw", "sim", "sim-rtl", "boards"},
           # design-space exploration runs everything below the CLI
           "explore": {"core", "compiler", "sim", "sim-rtl", "hw", "firmware", "boards", "explore"}}
#: Known violations being removed (none: keep it so, or name one with the change that removes it).
KNOWN: set[tuple[str, str]] = set()


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        if parts[1] == "sim" and len(parts) > 2 and parts[2] in ("rtl_runner", "tb"):
            return "sim-rtl"
        return parts[1]
    if len(parts) > 1 and (parts[1].startswith("cli") or parts[1] == "__main__"):   # python -m nnaccel
        return "cli"
    return "core"


def modules():
    """``(module name, path, is_package)`` of every source module."""
    for folder, pkg in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder).with_suffix("").parts
            if folder == "nnaccel" and rel and rel[0] in LAYERS:
                continue
            is_pkg = rel[-1] == "__init__"
            parts = [pkg, *(rel[:-1] if is_pkg else rel)]
            yield ".".join(parts), path, is_pkg


def imports(module: str, path: Path, is_pkg: bool):
    """``(imported module, line)`` of every ``import`` / ``from ... import`` at any depth; a name
    imported from a package counts as its submodule when it is one."""
    here = module.split(".") if is_pkg else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            yield target, node.lineno
            for a in node.names:
                yield f"{target}.{a.name}", node.lineno


def _ours(name: str, known: set) -> str | None:
    """The longest module of ours that ``name`` names (``pkg.func`` -> ``pkg``)."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        cand = ".".join(parts[:k])
        if cand in known:
            return cand
    return None


def violations():
    mods = list(modules())
    known = {m for m, _, _ in mods}
    out = set()
    for mod, path, is_pkg in mods:
        src = layer(mod)
        for name, line in imports(mod, path, is_pkg):
            target = _ours(name, known)
            if target is None or target == mod:
                continue
            dst = layer(target)
            rel = path.relative_to(ROOT)
            if dst == "cli" and (src != "cli" or target == "nnaccel.cli") and mod != "nnaccel.__main__":
                out.add((mod, target, f"{rel}:{line} imports the CLI module {target}"))
            elif src != "cli" and dst != "cli" and dst not in ALLOWED[src]:
                out.add((mod, target, f"{rel}:{line} ({src}) imports {target} ({dst})"))
    return out


def test_the_scan_sees_every_import(tmp_path):
    src = tmp_path / "mod.py"
    src.write_text("import nnaccel.a\nfrom .. import b\n\ndef f():\n    if True:\n        from .c import d\n")
    got = {name for name, _ in imports("nnaccel.compiler.lower.mod", src, False)}
    assert {"nnaccel.a", "nnaccel.compiler", "nnaccel.compiler.b", "nnaccel.compiler.lower.c",
            "nnaccel.compiler.lower.c.d"} <= got
    assert layer("nnaccel.sim.rtl_runner") == "sim-rtl" and layer("nnaccel.cli_demo") == "cli"
    assert layer("nnaccel.package") == "core"


def test_no_layering_violation():
    bad = sorted(why for m, t, why in violations() if (m, t) not in KNOWN)
    assert not bad, "layering violations:\n" + "\n".join(bad)


def test_known_violations_still_exist():
    """An entry of KNOWN that is fixed must leave the list (so it cannot come back unnoticed)."""
    found = {(m, t) for m, t, _ in violations()}
    assert KNOWN <= found, f"fixed, remove from KNOWN: {sorted(KNOWN - found)}"
