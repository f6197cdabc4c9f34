"""Entry point: builds the parser from the command modules and turns errors into exit codes.

Exit codes: 0 success, 1 a claim did not reach its expectation (``verify``,
``check``), 2 unusable input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from nimproof import __version__
from nimproof.errors import NimproofError, UsageError

#: Each module defines ``register(subparsers)``, which adds its sub-command(s)
#: and sets ``func`` (taking the parsed namespace, returning an exit code).
COMMANDS = ("games", "table", "value", "data", "check", "verify", "report", "mine", "period", "atlas")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (commands whose module is absent are left out)."""
    parser = _Parser(prog="nimproof", description="Machine-checked results about impartial games.")
    parser.add_argument("--version", action="version", version=f"nimproof {__version__}")
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="FILE",
        help="load game plugins from a Python file (repeatable)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"nimproof.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"nimproof.cli.{name}":
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    from nimproof.cli.common import err_console

    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        for path in args.plugin:
            from nimproof.games.plugins import load_plugin_file

            load_plugin_file(path)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return int(args.func(args) or 0)
    except UsageError as exc:
        err_console.print(f"error: {exc}", markup=False, soft_wrap=True)
        return 2
    except NimproofError as exc:
        err_console.print(f"error: {exc}", markup=False, soft_wrap=True)
        return 2
    except KeyboardInterrupt:
        err_console.print("interrupted", markup=False)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
