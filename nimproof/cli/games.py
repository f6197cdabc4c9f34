"""``nimproof games``: every family and plugin in plain words, each with a command to try."""

from __future__ import annotations

import argparse
from typing import Any

from nimproof.cli.common import add_command, console, print_json
from nimproof.games import all_families, parse_spec
from nimproof.games import plugins as plugin_module

#: Positions used in the example commands of multi-heap families.
_MULTI_EXAMPLE = {"sum": "4 6 7", "staircase": "3 1 4", "moves": "3 5"}
#: Families whose example is a whole command (a loopy game has outcomes, not values).
_COMMANDS = {
    "northcott": "nimproof check --game northcott:2 --heaps 6 --p-positions '(h[0] ^ h[3]) == 0'",
}


def register(subparsers: Any) -> None:
    """Add the ``games`` command."""
    p = add_command(
        subparsers,
        "games",
        run,
        "List every game family and plugin, in plain words, with a command to try.",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def example_command(name: str, spec: str, multi_heap: bool) -> str:
    """A command that shows the family at work (a small table, or one position's value)."""
    if name == "plugin":
        return "nimproof value plugin:chocolate 5 6 2 3"
    if name in _COMMANDS:
        return _COMMANDS[name]
    quoted = f"'{spec}'" if any(c in spec for c in " <>()*|&;") else spec
    if multi_heap:
        return f"nimproof value {quoted} {_MULTI_EXAMPLE.get(name) or _heaps_of(spec)}"
    return f"nimproof table {quoted} --max-n 20"


def _heaps_of(spec: str) -> str:
    """Three small heaps, or as many as the family's positions have (its move description says)."""
    fixed = parse_spec(spec).moves_spec.heap_count()
    return " ".join(["3", "5", "7", "2", "4"][: fixed or 3])


def listing() -> dict[str, list[dict[str, Any]]]:
    """The families (name, summary, example, command, aliases, multi_heap) and the plugins."""
    registered = all_families()  # first: registration order is the order shown

    plugin_module._load_entry_points()
    families = [
        {
            "name": f.info.name,
            "summary": f.info.summary,
            "example": f.info.example,
            "command": example_command(f.info.name, f.info.example, f.info.multi_heap),
            "aliases": list(f.aliases),
            "multi_heap": f.info.multi_heap,
        }
        for f in registered
    ]
    plugins = [
        {
            "name": name,
            "spec": f"plugin:{name}",
            "summary": cls.summary,
            "command": f"nimproof value plugin:{name} {cls.example_position}".rstrip(),
            "class": f"{cls.__module__}.{cls.__qualname__}",
        }
        for name, cls in sorted(plugin_module.PLUGINS.items())
    ]
    return {"families": families, "plugins": plugins}


def run(args: argparse.Namespace) -> int:
    """Print the families and plugins."""
    data = listing()
    if args.json:
        print_json(data)
        return 0
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="game families", title_justify="left", show_lines=True)
    table.add_column("family", style="bold", no_wrap=True)
    table.add_column("what a move is")
    table.add_column("try", style="cyan", overflow="fold")
    for f in data["families"]:
        name = f["name"] + ("\n(several heaps)" if f["multi_heap"] else "")
        table.add_row(escape(name), escape(f["summary"]), escape(f["command"]))
    console.print(table)
    plugins = Table(title="plugins (spec plugin:NAME)", title_justify="left", show_lines=True)
    plugins.add_column("plugin", style="bold", no_wrap=True)
    plugins.add_column("what a move is")
    plugins.add_column("try", style="cyan", overflow="fold")
    for p in data["plugins"]:
        plugins.add_row(escape(p["name"]), escape(p["summary"]), escape(p["command"]))
    console.print(plugins)
    return 0
