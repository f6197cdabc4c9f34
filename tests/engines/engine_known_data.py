"""Shared helpers for the engine tests: the known-answer data files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"


@dataclass(frozen=True)
class Sequence:
    spec: str
    first: int
    values: tuple[int, ...]
    line: int


@dataclass(frozen=True)
class PositionEntry:
    spec: str
    words: tuple[str, ...]
    value: int
    targets: tuple[tuple[str, ...], ...] | None
    line: int


def _entries(name: str) -> list[tuple[int, list[str]]]:
    out = []
    for number, raw in enumerate((DATA / name).read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.strip()
        if text and not text.startswith("#"):
            out.append((number, [part.strip() for part in text.split(";")]))
    return out


def known_sequences() -> list[Sequence]:
    """Entries of tests/data/grundy_sequences.txt."""
    return [
        Sequence(spec, int(first), tuple(int(v) for v in values.split()), line)
        for line, (spec, first, values) in _entries("grundy_sequences.txt")
    ]


def known_positions() -> list[PositionEntry]:
    """Entries of tests/data/position_values.txt."""
    out = []
    for line, parts in _entries("position_values.txt"):
        spec, words, value = parts[:3]
        targets: tuple[tuple[str, ...], ...] | None = None
        if len(parts) > 3:
            targets = (
                () if parts[3] == "-" else tuple(tuple(t.split()) for t in parts[3].split("|"))
            )
        out.append(PositionEntry(spec, tuple(words.split()), int(value), targets, line))
    return out
