"""Errors that reach the user.

Every error a user can cause (a malformed spec, an unknown family, a hostile
expression, an absurd bound, a broken conjecture file) is a :class:`UsageError`.
The command line prints its message on one line and exits with code 2.
"""

from __future__ import annotations


class NimproofError(Exception):
    """Base class of every error nimproof raises on purpose."""


class UsageError(NimproofError):
    """Bad input from the user: printed as one line, exit code 2."""


class SpecError(UsageError):
    """A game spec string that names no family or has malformed arguments."""


class ExprError(UsageError):
    """A malformed, ill-typed or disallowed expression.

    ``position`` is the 0-based character offset in ``text`` where the problem
    was found (``None`` when it concerns the whole expression).
    """

    def __init__(self, message: str, text: str = "", position: int | None = None) -> None:
        self.bare_message = message
        self.text = text
        self.position = position
        where = f" at column {position + 1}" if position is not None else ""
        shown = f" in {text!r}" if text else ""
        super().__init__(f"{message}{where}{shown}")


class EvalError(NimproofError):
    """An expression could not be evaluated at some point (division by zero, overflow)."""


class DatasetError(UsageError):
    """A stored dataset is missing, corrupted or does not match its metadata."""


class ClaimError(UsageError):
    """A conjecture file that does not follow the schema."""
