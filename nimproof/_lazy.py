"""Package attributes that load their module on first use (``import nimproof`` stays instant)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(
    package: str, where: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` for names defined in its modules.

    ``where`` maps each name to the module that defines it, relative to
    ``package`` (``".heap"``). The module is imported when the name is first
    asked for; any other name raises :class:`AttributeError`, as for a module
    without the name.
    """
    namespace = importlib.import_module(package)

    def attribute(name: str) -> Any:
        if name in where:
            return getattr(importlib.import_module(where[name], package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def names() -> list[str]:
        return sorted([*vars(namespace), *where])

    return attribute, names
