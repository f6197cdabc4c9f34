"""The package's shape: small functions and one registry of proof methods."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from nimproof.methods import ORDER, REGISTRY
from nimproof.verdict import Scope

PACKAGE = Path(__file__).resolve().parents[1] / "nimproof"
MAX_FUNCTION_LINES = 80


def test_no_function_in_the_package_is_longer_than_eighty_lines() -> None:
    long = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({lines})")
    assert long == []


def test_every_registered_method_has_a_run_function_and_typed_options() -> None:
    assert len(set(ORDER)) == len(ORDER)
    for method in REGISTRY:
        module = importlib.import_module(method.module)
        assert method.name == module.NAME
        assert callable(method.run)
        assert isinstance(method.options.__annotations__, dict)  # a TypedDict


def test_methods_are_registered_strongest_scope_first() -> None:
    ranks = [Scope(m.reaches, width=1, bound=1).rank()[0] for m in REGISTRY if not m.runs_last]
    assert ranks == sorted(ranks, reverse=True)
    last = [m.runs_last for m in REGISTRY]
    assert last == sorted(last), "a method that runs last comes after every other one"


def test_the_claim_schema_accepts_exactly_the_registered_methods() -> None:
    from nimproof.claims.model import METHODS

    assert tuple(METHODS) == ORDER


# ---------------------------------------------------------------------------
# Layers point one way: the command line is on top, nothing below imports it.
# ---------------------------------------------------------------------------

#: Modules outside ``nimproof/cli/`` allowed to import the command line: the ``python -m
#: nimproof`` entry point, and ``api.period`` until the periodicity analysis leaves
#: ``cli/period.py`` (the ``theory`` branch moves it to ``nimproof/theory/``; the
#: exemption is then removed).
CLI_IMPORT_ALLOWED = {
    ("__main__.py", "nimproof.cli.main"),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, package: str) -> list[str]:
    """Every module ``source`` (a module of ``package``) imports, at any depth (function
    bodies included), with relative imports resolved, ``from X import Y`` counted as
    ``X.Y`` too, and ``importlib.import_module("...")`` / ``__import__("...")`` calls on
    a literal."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = parts[: len(parts) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.append(base)
            found += [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and node.args:
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            arg = node.args[0]
            if name in ("import_module", "__import__") and isinstance(arg, ast.Constant):
                found.append(str(arg.value))
    return found


def _package_of(path: Path) -> str:
    here = _module_name(path)
    return here if path.name == "__init__.py" else here.rpartition(".")[0]


def _is_cli(module: str) -> bool:
    return module == "nimproof.cli" or module.startswith("nimproof.cli.")


def test_no_module_outside_cli_imports_the_command_line() -> None:
    cli = PACKAGE / "cli"
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if cli in path.parents:
            continue
        where = str(path.relative_to(PACKAGE))
        for module in imported_modules(path.read_text(encoding="utf-8"), _package_of(path)):
            allowed = any(
                where == w and (module == m or module.startswith(m + "."))
                for w, m in CLI_IMPORT_ALLOWED
            )
            if _is_cli(module) and not allowed:
                wrong.append(f"{where} imports {module}")
    assert wrong == []


def test_the_import_scan_sees_function_level_relative_and_dynamic_imports() -> None:
    source = (
        "def f():\n    from ..cli import common\n"
        "def g():\n    import nimproof.cli.table\n"
        "def h():\n    importlib.import_module('nimproof.cli.value')\n"
        "from nimproof.engines import reference\n"
    )
    seen = {m for m in imported_modules(source, "nimproof.reports") if _is_cli(m)}
    assert seen == {
        "nimproof.cli",
        "nimproof.cli.common",
        "nimproof.cli.table",
        "nimproof.cli.value",
    }


# ---------------------------------------------------------------------------
# Imports at the top: a function-level import of the package's own modules says why.
# ---------------------------------------------------------------------------


def _is_own_import(node: ast.stmt) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "nimproof"
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] == "nimproof" for a in node.names)
    return False


def unexplained_lazy_imports(source: str) -> list[int]:
    """Lines of function-level imports of ``nimproof`` modules (or relative ones) that carry
    no ``# lazy:`` comment: on the import's own line, on the line above it, or on the line
    above the run of consecutive imports it belongs to (one comment may explain a group)."""
    lines = source.splitlines()
    bare = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for block in ast.walk(fn):
            body = getattr(block, "body", None)
            if not isinstance(body, list):
                continue
            head = None  # the first statement of the current run of imports
            for node in body:
                if not isinstance(node, ast.Import | ast.ImportFrom):
                    head = None
                    continue
                head = head or node
                above = {lines[n.lineno - 2].strip() for n in (head, node) if n.lineno > 1}
                explained = "# lazy:" in lines[node.lineno - 1] or any(
                    a.startswith("# lazy:") for a in above
                )
                if _is_own_import(node) and not explained:
                    bare.append(node.lineno)
    return sorted(set(bare))


def test_function_level_imports_say_why_they_are_not_at_the_top() -> None:
    bare = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        bare += [f"{where}:{n}" for n in unexplained_lazy_imports(path.read_text("utf-8"))]
    assert bare == [], "move these imports to the top, or say why not (# lazy: ...)"


def test_the_lazy_import_check_sees_a_bare_import_and_accepts_a_named_reason() -> None:
    source = (
        "def f():\n    from nimproof.games import parse_spec\n"
        "def g():\n    from nimproof.engines import heap  # lazy: start-up time (numba)\n"
        "def h():\n    # lazy: import cycle with nimproof.cli.main\n    from ..cli import main\n"
        "def k():\n    import json\n"
        "def m():\n    # lazy: start-up time (numba, z3)\n    from nimproof import provers\n"
        "    from nimproof.engines import heap\n"
        "    x = 1\n    from nimproof import tables\n"
    )
    assert unexplained_lazy_imports(source) == [2, 15]
