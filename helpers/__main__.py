"""Command line entry: `python -m helpers <command>`. Commands: doctor (check your LLM setup).

What it leaves out on purpose: anything a notebook cell does better; each command is a thin wrapper.
"""

from __future__ import annotations

import sys

USAGE = "usage: python -m helpers doctor   (checks .env, key, provider, model and SDK version)"


def main(argv: list[str] | None = None) -> int:
    """Dispatch a subcommand and return its exit code (`main(["doctor"])`: 0 when every check passes).

    Example:
        >>> main(["help"])
        usage: python -m helpers doctor   (checks .env, key, provider, model and SDK version)
        0
        >>> main(["doctr"])  # the usage goes to stderr
        2
    """
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if argv else 2
    if argv[0] == "doctor":
        from helpers.doctor import main as doctor_main

        return doctor_main()
    print(f"Unknown command {argv[0]!r}.\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
