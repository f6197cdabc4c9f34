"""The generated reference pages are current, and the generator notices a stale one."""

from __future__ import annotations

from pathlib import Path

import pytest

from nimproof.cli import docgen
from nimproof.cli.main import COMMANDS
from nimproof.methods import REGISTRY

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("name", sorted(docgen.PAGES))
def test_committed_page_equals_a_fresh_one(name: str) -> None:
    committed = (DOCS / name).read_text(encoding="utf-8")
    assert committed == docgen.PAGES[name](), f"docs/{name} is stale: run `make docs`"


def test_pages_name_every_command_option_and_method() -> None:
    commands = docgen.commands_markdown()
    for name in COMMANDS:
        assert f"## `nimproof {name}`" in commands
    assert "`--require SCOPE`" in commands and "`--p-positions EXPR`" in commands
    methods = docgen.methods_markdown()
    for method in REGISTRY:
        assert f"## {method.name}\n" in methods and method.summary in methods
        for option in getattr(method.options, "__annotations__", {}):
            assert f"| `{option}` |" in methods, (method.name, option)


def test_check_reports_a_stale_page_and_writing_fixes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "methods.md").write_text("old\n", encoding="utf-8")
    assert docgen.main(["--docs", str(tmp_path), "--check"]) == 1
    assert "methods.md" in capsys.readouterr().err
    assert (tmp_path / "methods.md").read_text(encoding="utf-8") == "old\n"
    assert docgen.main(["--docs", str(tmp_path)]) == 0
    assert docgen.main(["--docs", str(tmp_path), "--check"]) == 0


def test_architecture_names_every_registered_method() -> None:
    text = (DOCS.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = [m.name for m in REGISTRY if f"| `{m.name}` |" not in text]
    assert missing == [], f"ARCHITECTURE.md's method table lacks {missing}"
