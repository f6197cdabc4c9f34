"""Multi-heap pictures carry information: each heap count shows its own slice."""

from __future__ import annotations

import hashlib
from pathlib import Path

from nimproof.reports.plots import Plotter


def _claim(heaps: int) -> dict[str, object]:
    return {
        "id": f"bouton[heaps={heaps}]",
        "kind": "p_positions",
        "game": "nim",
        "heaps": heaps,
        "formula": "xor(h) == 0",
    }


def test_each_heap_count_gets_its_own_slice_with_the_held_heaps_named(tmp_path: Path) -> None:
    plotter = Plotter()
    verdict = {"status": "proved"}
    captions, digests = [], []
    for heaps in (2, 3, 4, 6):
        path = tmp_path / f"{heaps}.png"
        caption = plotter.picture(_claim(heaps), verdict, path)
        assert caption is not None
        captions.append(caption)
        digests.append(hashlib.sha256(path.read_bytes()).hexdigest())
    assert len(set(digests)) == 4, "two heap counts drew the same picture"
    assert "h[2] = 5" in captions[1] and "h[2] = 6, other heaps 0" in captions[2]
    assert all("where the claim's predicate holds" in c for c in captions)


def test_a_wrong_predicate_is_marked_where_it_errs(tmp_path: Path) -> None:
    claim = {**_claim(3), "formula": "h[0] == h[1]"}
    caption = Plotter().picture(claim, {"status": "refuted"}, tmp_path / "w.png")
    assert caption is not None and "crosses mark positions where the claim errs" in caption
