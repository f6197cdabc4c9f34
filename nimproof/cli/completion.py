"""``nimproof completion SHELL``: shell code that completes commands, options and file names.

``eval "$(nimproof completion bash)"`` in ``~/.bashrc`` (``zsh`` and ``fish``
work the same way). Completion is argcomplete's: the shell calls nimproof
back with ``_ARGCOMPLETE`` set, and :func:`nimproof.cli.main.main` then
builds the full parser and answers.
"""

from __future__ import annotations

import argparse
from typing import Any

from nimproof.cli.common import add_command

SHELLS = ("bash", "zsh", "fish", "tcsh", "powershell")


def register(subparsers: Any) -> None:
    """Add the ``completion`` command."""
    p = add_command(
        subparsers,
        "completion",
        run,
        'Print shell code for completion; e.g. eval "$(nimproof completion bash)".',
    )
    p.add_argument("shell", nargs="?", default="bash", choices=SHELLS, help="default: bash")


def run(args: argparse.Namespace) -> int:
    """Print the completion code for ``args.shell``."""
    import sys

    import argcomplete

    sys.stdout.write(argcomplete.shellcode(["nimproof"], shell=args.shell))
    return 0
