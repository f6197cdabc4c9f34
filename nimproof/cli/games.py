"""``nimproof games``: every registered family, with a line about it and an example spec."""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from nimproof.cli.common import console, print_json


def register(subparsers: Any) -> None:
    """Add the ``games`` command."""
    p = subparsers.add_parser("games", help="list the game families and loaded plugins")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(func=run)


def listing() -> dict[str, list[dict[str, Any]]]:
    """The families (name, summary, example, aliases, multi_heap) and the loaded plugins."""
    from nimproof.games import all_families
    from nimproof.games import plugins as plugin_module

    plugin_module._load_entry_points()
    families = [
        {
            "name": f.info.name,
            "summary": f.info.summary,
            "example": f.info.example,
            "aliases": list(f.aliases),
            "multi_heap": f.info.multi_heap,
        }
        for f in all_families()
    ]
    plugins = [
        {
            "name": name,
            "spec": f"plugin:{name}",
            "summary": cls.summary,
            "class": f"{cls.__module__}.{cls.__qualname__}",
        }
        for name, cls in sorted(plugin_module.PLUGINS.items())
    ]
    return {"families": families, "plugins": plugins}


def run(args: argparse.Namespace) -> int:
    """Print the registry."""
    data = listing()
    if args.json:
        print_json(data)
        return 0
    table = Table(title="game families", title_justify="left", show_lines=False)
    table.add_column("family", style="bold")
    table.add_column("description")
    table.add_column("example spec", style="cyan")
    for f in data["families"]:
        name = f["name"] + (" (multi-heap)" if f["multi_heap"] else "")
        table.add_row(name, f["summary"], f["example"])
    console.print(table)
    plugins = Table(title="plugins (plugin:NAME)", title_justify="left")
    plugins.add_column("plugin", style="bold")
    plugins.add_column("description")
    plugins.add_column("spec", style="cyan")
    for p in data["plugins"]:
        plugins.add_row(p["name"], p["summary"], p["spec"])
    console.print(plugins)
    return 0
