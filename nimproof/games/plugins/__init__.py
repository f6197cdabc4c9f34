"""Games written in Python, and how they are found.

A plugin is a subclass of :class:`nimproof.games.base.PluginGame`. nimproof
finds plugins in three places, in this order: the examples shipped here, the
entry point group ``nimproof.games`` of installed packages, and files given
with ``--plugin FILE`` (loaded with :func:`load_plugin_file`). Each is then
addressed as ``plugin:NAME``.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path

from nimproof.errors import SpecError, UsageError
from nimproof.games.base import PluginGame
from nimproof.games.plugins.chocolate import ChocolateBar
from nimproof.games.plugins.coinstrip import CoinStrip
from nimproof.games.plugins.easychomp import EasyChomp
from nimproof.games.plugins.polygon import Polygon
from nimproof.games.registry import family

PLUGINS: dict[str, type[PluginGame]] = {}


def register_plugin(cls: type[PluginGame]) -> type[PluginGame]:
    """Make ``cls`` available as ``plugin:<cls.name>``."""
    if not (inspect.isclass(cls) and issubclass(cls, PluginGame)) or not cls.name:
        raise UsageError(f"{cls!r} is not a PluginGame subclass with a name")
    PLUGINS[cls.name] = cls
    return cls


for _cls in (ChocolateBar, EasyChomp, CoinStrip, Polygon):
    register_plugin(_cls)

_ENTRY_POINTS_LOADED: list[bool] = []


def _load_entry_points() -> None:
    if _ENTRY_POINTS_LOADED:
        return
    _ENTRY_POINTS_LOADED.append(True)
    from importlib.metadata import entry_points  # only when a plugin is looked up

    for ep in entry_points(group="nimproof.games"):
        if ep.name in PLUGINS:
            continue
        try:
            register_plugin(ep.load())
        except Exception as exc:  # a broken third-party plugin must not break nimproof
            print(f"warning: plugin entry point {ep.name!r} failed to load: {exc}", file=sys.stderr)


def load_plugin_file(path: str | Path) -> list[str]:
    """Import a Python file and register every PluginGame subclass it defines.

    Returns the names registered. The file is the user's own code and runs as
    such; errors while importing it become a one-line :class:`UsageError`.
    """
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"plugin file {str(p)!r} does not exist")
    spec = importlib.util.spec_from_file_location(f"nimproof_plugin_{p.stem}", p)
    if spec is None or spec.loader is None:
        raise UsageError(f"cannot load plugin file {str(p)!r}")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise UsageError(f"plugin file {str(p)!r} failed to import: {exc}") from None
    names = []
    for obj in vars(module).values():
        if (
            inspect.isclass(obj)
            and issubclass(obj, PluginGame)
            and obj is not PluginGame
            and obj.name
        ):
            register_plugin(obj)
            names.append(obj.name)
    if not names:
        raise UsageError(f"plugin file {str(p)!r} defines no PluginGame subclass with a name")
    return names


@family(
    "plugin",
    "a game written in Python: those shipped are listed below, load your own with --plugin FILE",
    "plugin:chocolate",
    needs="a plugin name",
)
def _plugin(args: str | None) -> PluginGame:
    assert args  # the registry refuses a spec without it (``needs``)
    name = args.strip()
    _load_entry_points()
    if name not in PLUGINS:
        import difflib

        known = ", ".join(sorted(PLUGINS))
        near = difflib.get_close_matches(name, list(PLUGINS), n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise SpecError(
            f"unknown plugin {name!r}{hint} (known: {known}; load a file with --plugin FILE)"
        )
    return PLUGINS[name]()
