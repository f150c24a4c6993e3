"""Command line: `python -m helpers.offline serve [--port N] [--host H] [--fault MODE] [--fault-delay S]
[--context-window TOKENS]`.

It only starts the HTTP server; everything else is in the package.
"""

from __future__ import annotations

import argparse
import sys

from helpers.offline.api.faults import FAULT_MODES
from helpers.offline.api.server import DEFAULT_FAULT_DELAY, serve


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the server.

    Example: (`main(["serve", "--port", "8765"])` serves until Ctrl+C; a port that cannot exist is refused
    with a hint on stderr)
        >>> main(["serve", "--port", "70000"])
        1
    """
    parser = argparse.ArgumentParser(prog="python -m helpers.offline",
                                     description="The offline model: a rule-based, deterministic stand-in for "
                                                 "an LLM, speaking the OpenAI API.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="serve the OpenAI API on 127.0.0.1")
    run.add_argument("--port", type=int, default=8765, help="port to listen on (0 = any free port; default 8765)")
    run.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    run.add_argument("--fault", choices=FAULT_MODES, help="make every request fail this way (for tests)")
    run.add_argument("--fault-delay", type=float, default=DEFAULT_FAULT_DELAY,
                     help=f"seconds the 'timeout' fault waits (default {DEFAULT_FAULT_DELAY:g})")
    run.add_argument("--context-window", type=int, default=None,
                     help="prompt tokens one request may hold (default 128000); more gets the real 400")
    run.add_argument("--quiet", action="store_true", help="do not log each request")
    args = parser.parse_args(argv)
    try:
        serve(args.port, args.host, args.fault, args.fault_delay, verbose=not args.quiet,
              context_window=args.context_window)
    except (OSError, OverflowError) as exc:  # OverflowError: a port outside 0-65535
        print(f"Cannot listen on {args.host}:{args.port}: {exc}. Is another server using the port? Try "
              f"--port 0 for any free port.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
