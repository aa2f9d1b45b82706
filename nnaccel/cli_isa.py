"""``nnaccel isa``: assemble, disassemble, regenerate docs/isa.md, show a hardware configuration."""

from __future__ import annotations

import sys
from pathlib import Path

from nnaccel.hwconfig import DEFAULT_CONFIG

from .errors import InputError


def _read(path: str, binary: bool):
    p = Path(path)
    if not p.exists():
        raise InputError(f"The file {path} does not exist.")
    try:
        return p.read_bytes() if binary else p.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"The file {path} is not UTF-8 text (byte {e.start}); an assembly source is "
                         f"text.") from None
    except OSError as e:
        raise InputError(f"The file {path} cannot be read ({e.strerror}).") from None


def cmd_asm(args) -> int:
    from .ioutil import write_atomic
    from .isa import assemble, words_to_bytes
    words = assemble(_read(args.source, False))
    write_atomic(args.output, words_to_bytes(words), "program file")
    print(f"wrote {len(words)} instructions to {args.output}")
    return 0


def cmd_disasm(args) -> int:
    from .isa import AcceleratorFault, bytes_to_words, disassemble
    try:
        text = disassemble(bytes_to_words(_read(args.binary, True)), numbered=not args.plain)
    except AcceleratorFault as e:  # an undecodable word: the file is not a valid program
        raise InputError(f"The program {args.binary} cannot be disassembled: {e}") from None
    if args.output:
        from .ioutil import write_atomic
        write_atomic(args.output, text, "listing")
    else:
        sys.stdout.write(text)
    return 0


def cmd_doc(args) -> int:
    from .ioutil import write_atomic
    from .isa.docgen import render, update_accelerator_doc
    text = render()
    if args.accelerator_doc:
        p = Path(args.accelerator_doc)
        old = p.read_text() if p.exists() else "# nnaccel accelerator\n"
        write_atomic(p, update_accelerator_doc(old), "document")
        print(f"updated the cycle model in {p}")
    if args.output:
        write_atomic(args.output, text, "document")
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_config(args) -> int:
    from .hwconfig import load_config
    cfg = load_config(args.config)
    sys.stdout.write(cfg.to_json() if args.json else cfg.to_toml())
    return 0


def _program_words(path: str) -> list[int]:
    from .isa import assemble, bytes_to_words
    if path.endswith((".s", ".asm")):
        return assemble(_read(path, False))
    return bytes_to_words(_read(path, True))


def cmd_run(args) -> int:
    import numpy as np

    from .ioutil import check_writable, write_atomic
    from .isa import AcceleratorFault
    from .sim.isasim import IsaSim, find_conflicts
    dumps = []
    for spec in args.dump:
        where, _, file = spec.partition("=")
        addr, _, size = where.partition(":")
        if not file or not size:
            raise InputError(f"--dump takes ADDR:BYTES=FILE, not {spec!r}.")
        check_writable(file, "dump file")  # before the run
        dumps.append((addr, size, file))
    words = _program_words(args.program)
    sim = IsaSim(args.config)
    for spec in args.load:
        addr, _, file = spec.partition("=")
        if not file:
            raise InputError(f"--load takes ADDR=FILE, not {spec!r}.")
        sim.write(int(addr, 0), np.frombuffer(_read(file, True), np.uint8))
    try:
        result = sim.run(words, max_cycles=args.max_cycles)
    except AcceleratorFault as e:  # the user's program faults: invalid input, not a failure of nnaccel
        raise InputError(f"The program {args.program} stopped with a fault: {e}") from None
    print(result.summary())
    for addr, size, file in dumps:
        write_atomic(file, sim.read(int(addr, 0), (int(size, 0),)).tobytes(), "dump file")
        print(f"wrote {size} bytes from {addr} to {file}")
    if args.check_races:
        conflicts = find_conflicts(words, sim.cfg)
        for c in conflicts:
            print(f"race: {c}")
        return 1 if conflicts else 0
    return 0


def register(subparsers) -> None:
    from .cli_models import add_output_arg
    p = subparsers.add_parser("isa", help="accelerator ISA tools: asm, disasm, run, doc, config",
                              description="Assemble and disassemble accelerator programs, regenerate "
                                          "docs/isa.md, print a hardware configuration.")
    sub = p.add_subparsers(dest="isa_command", metavar="ACTION", parser_class=type(p))
    a = sub.add_parser("asm", help="assembly text -> binary (16 bytes per instruction)")
    a.add_argument("source", help="assembly file")
    add_output_arg(a, "-o", "--output", what="program file", required=True, help="binary file to write")
    a.set_defaults(func=cmd_asm)
    d = sub.add_parser("disasm", help="binary -> assembly text")
    d.add_argument("binary", help="program binary")
    add_output_arg(d, "-o", "--output", what="listing", help="write the listing here instead of stdout")
    d.add_argument("--plain", action="store_true", help="no instruction numbers")
    d.set_defaults(func=cmd_disasm)
    g = sub.add_parser("doc", help="print or write the ISA reference generated from the table")
    add_output_arg(g, "-o", "--output", what="document", help="file to write (docs/isa.md)")
    add_output_arg(g, "--accelerator-doc", what="document", metavar="FILE",
                   help="also refresh the generated cycle-model block of this file (docs/accelerator.md)")
    g.set_defaults(func=cmd_doc)
    r = sub.add_parser("run", help="run a program on the ISA simulator and print its counters",
                       description="Run a program (.bin, or assembly .s/.asm) on the ISA simulator. A "
                                   "fault prints its code and instruction index and exits 1.")
    r.add_argument("program", help="program binary or assembly file")
    r.add_argument("--config", default=DEFAULT_CONFIG,
                   help=f"preset name or .toml/.json file (default {DEFAULT_CONFIG})")
    r.add_argument("--load", action="append", default=[], metavar="ADDR=FILE",
                   help="write a file's bytes into external memory first (repeatable)")
    r.add_argument("--dump", action="append", default=[], metavar="ADDR:BYTES=FILE",
                   help="write external memory to a file afterwards (repeatable)")
    r.add_argument("--max-cycles", type=int, default=None, metavar="N",
                   help="stop with an error, before running, when the program takes more than N cycles")
    r.add_argument("--check-races", action="store_true",
                   help="also report instructions that race (exit 1 if any)")
    r.set_defaults(func=cmd_run)
    c = sub.add_parser("config", help="print a hardware configuration as TOML or JSON")
    c.add_argument("--config", default=DEFAULT_CONFIG,
                   help=f"preset name or .toml/.json file (default {DEFAULT_CONFIG})")
    c.add_argument("--json", action="store_true", help="JSON instead of TOML")
    c.set_defaults(func=cmd_config)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])
