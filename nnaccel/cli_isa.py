"""``nnaccel isa``: assemble, disassemble, regenerate docs/isa.md, show a hardware configuration."""

from __future__ import annotations

import sys
from pathlib import Path

from .errors import InputError


def _read(path: str, binary: bool):
    p = Path(path)
    if not p.exists():
        raise InputError(f"The file {path} does not exist.")
    return p.read_bytes() if binary else p.read_text()


def cmd_asm(args) -> int:
    from .isa import assemble, words_to_bytes
    words = assemble(_read(args.source, False))
    Path(args.output).write_bytes(words_to_bytes(words))
    print(f"wrote {len(words)} instructions to {args.output}")
    return 0


def cmd_disasm(args) -> int:
    from .isa import bytes_to_words, disassemble
    text = disassemble(bytes_to_words(_read(args.binary, True)), numbered=not args.plain)
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_doc(args) -> int:
    from .isa.docgen import render, update_accelerator_doc
    text = render()
    if args.accelerator_doc:
        p = Path(args.accelerator_doc)
        old = p.read_text() if p.exists() else "# nnaccel accelerator\n"
        p.write_text(update_accelerator_doc(old))
        print(f"updated the cycle model in {p}")
    if args.output:
        Path(args.output).write_text(text)
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_config(args) -> int:
    from .hwconfig import load_config
    cfg = load_config(args.config)
    sys.stdout.write(cfg.to_json() if args.json else cfg.to_toml())
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("isa", help="accelerator ISA tools: asm, disasm, doc, config",
                              description="Assemble and disassemble accelerator programs, regenerate "
                                          "docs/isa.md, print a hardware configuration.")
    sub = p.add_subparsers(dest="isa_command", metavar="ACTION", parser_class=type(p))
    a = sub.add_parser("asm", help="assembly text -> binary (16 bytes per instruction)")
    a.add_argument("source", help="assembly file")
    a.add_argument("-o", "--output", required=True, help="binary file to write")
    a.set_defaults(func=cmd_asm)
    d = sub.add_parser("disasm", help="binary -> assembly text")
    d.add_argument("binary", help="program binary")
    d.add_argument("-o", "--output", help="write the listing here instead of stdout")
    d.add_argument("--plain", action="store_true", help="no instruction numbers")
    d.set_defaults(func=cmd_disasm)
    g = sub.add_parser("doc", help="print or write the ISA reference generated from the table")
    g.add_argument("-o", "--output", help="file to write (docs/isa.md)")
    g.add_argument("--accelerator-doc", metavar="FILE",
                   help="also refresh the generated cycle-model block of this file (docs/accelerator.md)")
    g.set_defaults(func=cmd_doc)
    c = sub.add_parser("config", help="print a hardware configuration as TOML or JSON")
    c.add_argument("--config", default="tiny", help="preset name or .toml/.json file (default tiny)")
    c.add_argument("--json", action="store_true", help="JSON instead of TOML")
    c.set_defaults(func=cmd_config)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])
