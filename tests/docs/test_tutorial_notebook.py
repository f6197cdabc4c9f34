"""The tutorial notebook in docs/ runs from top to bottom and shows what it says it shows."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "tutorial.ipynb"


def test_tutorial_notebook_executes_and_shows_a_table_a_plot_a_proof_and_a_refutation(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("NIMPROOF_DATA", str(tmp_path / "data"))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    texts = "\n".join(
        str(o.get("data", {}).get("text/plain", "")) + str(o.get("text", "")) for o in outputs
    )
    html = "\n".join(str(o.get("data", {}).get("text/html", "")) for o in outputs)
    assert "grundy" in html and "<table" in html  # a DataFrame rendered as a table
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the plot
    assert "('proved', 71, 12, 0, 181)" in texts  # the period, proved by the theorem
    assert "('proved', 'all positions')" in texts
    # The text credits the method that really proved the claim, and no other.
    words = "\n".join(str(cell.source) for cell in notebook.cells if cell.cell_type == "markdown")
    assert "[('automata', 'proved', 'all positions')]" in texts
    assert "automata method proves it" in words
    for method in ("z3", "exhaustive", "hypothesis", "hunt"):
        assert method not in words or method in texts, method
    assert "refuted" in texts and "re-checked by: reference implementation" in texts
    assert "(5, ['heap 3: 7 -> 2'])" in texts  # seed 003's example: nim-sum 5
