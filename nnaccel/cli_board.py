"""``nnaccel build`` (a board's bitstream) and the ``board`` / ``board-sim`` backends of ``nnaccel
run`` (:func:`board_run`)."""

from __future__ import annotations

import shutil
import subprocess
import sys

from .errors import InputError


def cmd_build(args) -> int:
    from .boards.build import bitstream_path, board_variant, build_bitstream, program_command
    from .boards.catalog import board
    from .ioutil import check_writable
    b = board_variant(board(args.board), args.config, args.freq)
    b.config()          # a bad preset: ConfigError (exit 2)
    check_writable(bitstream_path(b, args.output), "bitstream")  # the default name too, before the build
    from .cli_synth import ProgressSteps
    steps = ProgressSteps("nnaccel")     # each step of the flow with its running time
    try:
        rep = build_bitstream(b, args.output, seed=args.seed, log=steps.step)
    except ValueError as e:
        raise InputError(str(e)) from None
    finally:
        steps.close()
    res = ", ".join(f"{k} {u}/{a}" for k, (u, a) in rep["resources"].items())
    print(f"{rep['bitstream']}: {rep['bytes']:,} bytes; {res}; fmax {rep['fmax_mhz']:.2f} MHz at a "
          f"{rep['clock_mhz']:g} MHz clock (seed {rep['seed']}, {rep['seconds']:.0f} s)")
    if args.json:
        from .ioutil import write_json
        write_json(args.json, rep, "report file")
    if args.program:
        cmd = program_command(b, rep["bitstream"])
        if shutil.which(cmd[0]):
            return subprocess.call(cmd)
        print(f"{cmd[0]} is not installed; program the board with: {' '.join(cmd)}")
    return 0


def board_run(args, obj, inputs, wave=None):
    """``nnaccel run --backend board|board-sim --board NAME``: compiles for the board's configuration,
    opens the link (the serial port, or the board's simulation) and runs through it; ``wave`` (board-sim):
    ``(FILE.fst, (first, last) or None)``, the simulation's waveform (:class:`~nnaccel.boards.boardsim.BoardSim`)."""
    import warnings

    from .boards.catalog import board
    from .boards.soc import max_step_cycles
    from .firmware import runtime
    from .firmware.link import LinkClient, SerialTransport, SocketTransport, board_backend, cycles_per_byte
    from .package import Package
    if not args.board:
        raise InputError(f"--backend {args.backend} needs --board NAME.")
    b = board(args.board)
    cfg = b.config()
    if args.config and args.config != b.preset:
        raise InputError(f"The {b.name} bitstream carries the {b.preset} preset, not {args.config}.")
    if isinstance(obj, Package):
        pkg = obj
    else:
        from .compiler.compile import compile_model
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pkg = compile_model(obj, cfg)
    from .cli_compile import print_host_operations
    print_host_operations(pkg)
    say = (lambda msg: print(msg, file=sys.stderr))
    sim = None
    if args.backend == "board":
        if not args.port:
            raise InputError("--backend board needs --port DEVICE (the board's UART, e.g. /dev/ttyUSB1).")
        transport = SerialTransport(args.port, b.baud, timeout=getattr(args, "link_timeout", 1.0))
    else:
        from .boards.boardsim import BoardSim
        sim = BoardSim(b, log=say, wave=wave)
        transport = SocketTransport(sim.sock, timeout=30.0)
    try:
        client = LinkClient(transport, log=say)
        return runtime.Runtime(pkg, cfg, max_cycles=getattr(args, "max_cycles", None)).run(
            inputs, board_backend(client, b.mem_bytes, cycles_per_byte(b), max_step_cycles(cfg)),
            name=args.backend)
    finally:
        (sim or transport).close()


def register(sub) -> None:
    from .boards.catalog import BOARDS
    from .cli_models import add_output_arg
    names = ", ".join(f"{b.name} ({b.title}: {b.preset}, {b.clock_mhz:g} MHz)" for b in BOARDS.values())
    p = sub.add_parser("build", help="build a board's bitstream (the accelerator SoC) with the pip toolchain",
                       description=f"Build the SoC of a board (the accelerator, its memory, the UART host "
                                   f"link, LEDs) into a bitstream with Yosys and nextpnr (YoWASP): .bin for "
                                   f"iCE40, .bit for ECP5. Prints the resources and the post-route fmax; "
                                   f"fails when timing at the board clock is not met. Boards: {names}.")
    p.add_argument("--board", required=True, metavar="NAME", help="the board")
    p.add_argument("--config", metavar="PRESET", help="accelerator preset (default the board's)")
    add_output_arg(p, "-o", "--output", what="bitstream", metavar="FILE",
                   help="bitstream to write (default BOARD-PRESET.bin / .bit)")
    p.add_argument("--freq", type=float, metavar="MHZ", help="SoC clock (default the board's)")
    p.add_argument("--seed", type=int, default=1, help="nextpnr seed (default 1; the bitstream is "
                                                       "deterministic for a seed)")
    add_output_arg(p, "--json", what="report file", metavar="FILE",
                   help="write the report (resources, fmax, bitstream) as JSON")
    p.add_argument("--program", action="store_true",
                   help="then load it with the board's loader (iceprog / openFPGALoader), or print the command")
    p.set_defaults(func=cmd_build)
