"""Known answers from the sources (OEIS, the seed texts), kept in tests/data/."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from engine_known_data import PositionEntry, Sequence, known_positions, known_sequences

from nimproof.engines import grundy_table, position_value, winning_moves
from nimproof.games import PluginGame, parse_spec

SEQUENCES = known_sequences()
POSITIONS = known_positions()


def test_the_data_files_hold_the_entries_the_brief_names() -> None:
    specs = {s.spec for s in SEQUENCES}
    assert {"kayles", "half-heap", "knim:3"} <= specs
    kayles = [s for s in SEQUENCES if s.spec == "kayles"]
    assert len(kayles[0].values) == 105  # OEIS A002186 for n = 0..104
    assert any(s.spec == "half-heap" and s.first == 1 and len(s.values) == 118 for s in SEQUENCES)
    assert any(p.words == ("17", "24", "7", "11") for p in POSITIONS)


def test_kayles_entry_is_the_one_in_the_shared_reference_file() -> None:
    shared = Path("/work/shared/reference/known_sequences.json")
    if not shared.exists():
        pytest.skip("the shared reference file is not on this machine")
    published = json.loads(shared.read_text())["sequences"][0]["values"]
    assert next(s for s in SEQUENCES if s.spec == "kayles").values == tuple(published)


@pytest.mark.parametrize("entry", SEQUENCES, ids=lambda s: f"{s.spec}@line{s.line}")
def test_table_matches_published_sequence(entry: Sequence) -> None:
    table = grundy_table(parse_spec(entry.spec), entry.first + len(entry.values) - 1)
    assert table[entry.first :].tolist() == list(entry.values)


def test_kayles_table_matches_oeis_a002186() -> None:
    entry = next(s for s in SEQUENCES if s.spec == "kayles")
    assert grundy_table(parse_spec("kayles"), 104).tolist() == list(entry.values)


def test_kayles_has_period_12_after_preperiod_71() -> None:
    # MATH.md / CGSuite: period 12, preperiod 71 (last exceptional value at n = 70).
    g = grundy_table(parse_spec("kayles"), 4096)
    assert np.array_equal(g[71 + 12 :], g[71:-12])
    assert g[70] != g[82]


def test_half_heap_follows_a025480_recursion_up_to_100000() -> None:
    # OEIS A025480: a(2n) = n, a(2n+1) = a(n).
    g = grundy_table(parse_spec("half-heap"), 100_000)
    n = np.arange(len(g))
    even = n % 2 == 0
    assert np.array_equal(g[even], n[even] // 2)
    assert np.array_equal(g[~even], g[n[~even] // 2])


@pytest.mark.parametrize("k", range(1, 11))
def test_knim_values_are_n_mod_k_plus_1(k: int) -> None:
    # Seed 004, formula (2); seed 003, example 5 for k = 3.
    g = grundy_table(parse_spec(f"knim:{k}"), 10_000)
    assert np.array_equal(g, np.arange(10_001) % (k + 1))


def _position(spec: str, words: tuple[str, ...]) -> object:
    game = parse_spec(spec)
    if isinstance(game, PluginGame):
        return game.parse_position(list(words))
    return tuple(int(w) for w in words)


@pytest.mark.parametrize("entry", POSITIONS, ids=lambda p: f"{p.spec}:{'-'.join(p.words)}")
def test_position_value_matches_source(entry: PositionEntry) -> None:
    game = parse_spec(entry.spec)
    assert position_value(game, _position(entry.spec, entry.words)) == entry.value


@pytest.mark.parametrize(
    "entry",
    [p for p in POSITIONS if p.targets is not None],
    ids=lambda p: f"{p.spec}:{'-'.join(p.words)}",
)
def test_winning_moves_match_source(entry: PositionEntry) -> None:
    game = parse_spec(entry.spec)
    assert entry.targets is not None
    found = {m.target for m in winning_moves(game, _position(entry.spec, entry.words))}
    assert found == {_position(entry.spec, t) for t in entry.targets}
