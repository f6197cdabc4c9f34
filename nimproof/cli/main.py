# PYTHON_ARGCOMPLETE_OK  (marker for argcomplete's shell completion)
"""Entry point: builds the parser from the command modules and turns errors into exit codes.

Exit codes: 0 success, 1 a claim did not reach its expectation (``verify``,
``check``), 2 unusable input (one line on stderr, never a traceback). A
closed pipe (``nimproof games | head -1``) ends the run quietly with 0.

Start-up is kept short: only the module of the command being run is
imported (``nimproof --help`` imports none of them), and each command module
imports its heavy dependencies (numba, z3, sympy, pandas) inside its ``run``.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import re
import sys
from collections.abc import Sequence

from nimproof import __version__
from nimproof.cli.common import err_console
from nimproof.errors import NimproofError, UsageError

#: Each command is a module ``nimproof.cli.<name>`` defining ``register(subparsers)``,
#: which adds the sub-command and sets ``func`` (taking the parsed namespace,
#: returning an exit code). The one-line help here is what ``nimproof --help`` shows.
COMMANDS: dict[str, str] = {
    "games": "list the game families and plugins, each with an example",
    "table": "compute (or load) the Grundy table of a game",
    "value": "value of a position and every winning move",
    "period": "find the period of a one-heap game (preperiod, period, saltus, bound)",
    "data": "list, verify or build the stored tables",
    "check": "check a game against a proposed formula",
    "verify": "decide every claim in conjecture files",
    "report": "write the Markdown and HTML reports from a results file",
    "certify": "re-check proof certificates with the independent checker",
    "mine": "guess closed forms from Grundy tables and verify them",
    "misere": "misère quotient of a take-and-break game: presentation, P-portion, heap map",
    "atlas": "sweep a family of games on Dask into an atlas (parquet, HTML, Markdown)",
    "campaign": "take the games a public list calls unsolved deeper, doubling by doubling",
    "completion": "print the shell code that completes nimproof's commands and options",
}


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (a :class:`UsageError`) that suggest the nearest name."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}{_suggestion(self, message)}")


def _option_strings(parser: argparse.ArgumentParser) -> list[str]:
    found: list[str] = []
    for action in parser._actions:
        found += [s for s in action.option_strings if s.startswith("--")]
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found += _option_strings(child)
    return sorted(set(found))


def _suggestion(parser: argparse.ArgumentParser, message: str) -> str:
    choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice:
        options = re.findall(r"'([^']*)'", choice.group(2))
        near = difflib.get_close_matches(choice.group(1), options, n=1)
        return f"; did you mean {near[0]!r}?" if near else ""
    unknown = re.search(r"unrecognized arguments: (.*)", message)
    if unknown:
        for word in unknown.group(1).split():
            if word.startswith("--"):
                name = word.split("=", 1)[0]
                near = difflib.get_close_matches(name, _option_strings(parser), n=1)
                if near:
                    return f"; did you mean {near[0]!r}?"
    return ""


def split_plugins(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``--plugin FILE`` / ``--plugin=FILE`` taken from anywhere in ``argv`` (before ``--``).

    Returns ``(plugin files, the other words in order)``.
    """
    plugins: list[str] = []
    rest: list[str] = []
    words = list(argv)
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            rest += words[i:]
            break
        if w == "--plugin":
            if i + 1 >= len(words):
                raise UsageError("nimproof: --plugin needs a FILE (a Python file defining games)")
            plugins.append(words[i + 1])
            i += 2
            continue
        if w.startswith("--plugin="):
            plugins.append(w.partition("=")[2])
        else:
            rest.append(w)
        i += 1
    return plugins, rest


def _command_of(argv: Sequence[str]) -> str | None:
    for w in argv:
        if w == "--":
            return None
        if not w.startswith("-"):
            return w if w in COMMANDS else None
    return None


def build_parser(only: str | None = None, *, every: bool = False) -> argparse.ArgumentParser:
    """The argument parser.

    The module of command ``only`` (of every command when ``every``) is
    imported and registers its options; the other commands appear with their
    one-line help, so listing them imports nothing.
    """
    parser = _Parser(
        prog="nimproof",
        description="Machine-checked results about impartial games.",
        epilog="Run 'nimproof COMMAND --help' for a command's options. "
        "--plugin FILE may be given anywhere on the line.",
    )
    parser.add_argument("--version", action="version", version=f"nimproof {__version__}")
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="FILE",
        help="load game plugins from a Python file (repeatable, anywhere on the line)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_text in COMMANDS.items():
        if every or name == only:
            module = importlib.import_module(f"nimproof.cli.{name}")
            module.register(sub)
        else:
            sub.add_parser(name, help=help_text)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        plugins, words = split_plugins(words)
        completing = "_ARGCOMPLETE" in os.environ
        parser = build_parser(_command_of(words), every=completing)
        if completing:
            import argcomplete

            argcomplete.autocomplete(parser)
        args = parser.parse_args(words)
        args.plugin = plugins
        args.argv = list(sys.argv[1:] if argv is None else argv)  # the line as typed
        if plugins:
            # lazy: start-up time (only with --plugin)
            from nimproof.games.plugins import load_plugin_file

            for path in plugins:
                load_plugin_file(path)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except NimproofError as exc:
        err_console.print(f"error: {exc}", markup=False, soft_wrap=True)
        return 2
    except KeyboardInterrupt:
        err_console.print("interrupted", markup=False)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0


def _quiet_stdout() -> None:
    # The reader went away (``| head``): point stdout at /dev/null so that the
    # interpreter's final flush does not fail again and turn the exit code into 1.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
