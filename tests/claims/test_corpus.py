"""The seed corpus (conjectures/seeds): complete, well-formed, and right about the texts' examples.

These tests do not run the verifier. They check that every claim loads, that
the corpus covers the claims table of MATH.md, every source text, every
worked example and every typo, and they recompute the worked examples with
the plain reference implementation (or, where noted, an even simpler
computation written here) so that a transcription error is caught even if
the verifier had the same error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from nimproof.claims import Claim, load_paths
from nimproof.engines import reference
from nimproof.expr import evaluate, parse
from nimproof.games import HeapGame, PluginGame, mex, parse_spec
from nimproof.games.misere import Misere
from nimproof.games.plugins.polygon import Polygon
from nimproof.provers import prepare

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "conjectures" / "seeds"
SHARED = Path("/work/shared")
MATH_MD = SHARED / "MATH.md"
KNOWN_SEQUENCES = SHARED / "reference" / "known_sequences.json"

SEED_FILES = (
    "000_1ba4b50d5d65141e.txt",
    "001_1f301f41a9218c2c.txt",
    "002_33ce59738ecee83e.txt",
    "003_265543a1474a87c2.txt",
    "004_be2ed0d0f531312e.txt",
)

#: The tag that marks the claims of each row of MATH.md's claims table.
ROW_TAGS = {
    "Bouton": "bouton",
    "Lemma 5 (xor lemma)": "xor-lemma",
    "Sprague–Grundy": "sprague-grundy",
    "one-heap Nim": "one-heap-nim",
    "k-Nim (subtract 1..k)": "k-nim",
    "misère Nim": "misere-nim",
    "Moore's Nim_k": "moore",
    "staircase Nim": "staircase",
    "half-heap game": "half-heap",
    "Kayles": "kayles",
    "tromino strip": "tromino",
    "chocolate with a stone": "chocolate",
    "EasyChomp": "easychomp",
    "coin strip": "coin-strip",
}

#: Worked examples as the texts give them: (game, heaps in the text's order, the value the text
#: states or None, the winning moves the text names).
WORKED_EXAMPLES: list[tuple[str, tuple[int, ...], int | None, list[tuple[int, ...]]]] = [
    # seed 000: the Ruby program's printed nimbers
    ("nim", (3, 2, 1), 0, []),
    ("nim", (2, 2), 0, []),
    ("nim", (1, 1), 0, []),
    ("nim", (3, 2), 1, []),
    ("nim", (3, 1), 2, []),
    ("nim", (2,), 2, []),
    ("half-heap", (132, 73, 23), None, []),
    # seed 003: examples 2, 3 and 5
    ("nim", (3, 5, 7), None, [(2, 5, 7), (3, 4, 7), (3, 5, 6)]),
    ("nim", (17, 24, 7, 11), 5, [(17, 24, 2, 11)]),
    ("knim:3", (9,), 1, [(8,)]),
    # seed 001
    ("nim", (18, 8, 14, 9, 23), None, [(18, 2, 14, 9, 23)]),
    ("nim", (7, 8, 10), None, [(2, 8, 10)]),
    ("nim", (2, 8, 7), None, [(2, 5, 7)]),
    ("nim", (19, 25, 12), None, [(19, 25, 10)]),
    ("nim", (21, 39), None, []),
    ("nim", (1, 3, 5, 7), None, []),
    ("nim", (3, 4, 5), None, []),
]

#: Seed 000's printed table of the modified Nim (heap: nimber, both in binary).
BINARY_TABLE = {
    "1": "0",
    "10": "1",
    "11": "0",
    "100": "10",
    "101": "1",
    "110": "11",
    "111": "0",
    "1000": "100",
    "1001": "10",
    "1010": "101",
    "1011": "1",
    "1100": "110",
    "11110": "1111",
    "11111": "0",
    "10001111": "100",
    "10010000": "1001000",
    "10010001": "100100",
    "10010010": "1001001",
    "10010011": "10010",
    "10010100": "1001010",
    "10010101": "100101",
    "10010110": "1001011",
}

SEED000_FIRST_15 = [0, 1, 0, 2, 1, 3, 0, 4, 2, 5, 1, 6, 3, 7, 0]


@pytest.fixture(scope="module")
def claims() -> list[Claim]:
    return load_paths([CORPUS])


def _by_id(claims: list[Claim], cid: str) -> Claim:
    return next(c for c in claims if c.id == cid)


def _heap_game(spec: str) -> HeapGame:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    return game


def _tagged(claims: list[Claim], tag: str) -> list[Claim]:
    return [c for c in claims if tag in c.tags]


def test_every_corpus_file_loads_and_every_claim_cites_a_seed_section_and_its_wording(
    claims: list[Claim],
) -> None:
    files = sorted(CORPUS.glob("*.toml"))
    assert files, "no corpus files"
    assert {c.path for c in claims} == set(files)
    for c in claims:
        assert c.source.seed in SEED_FILES, c.id
        assert c.source.section.strip() and c.source.wording.strip() and c.statement.strip(), c.id
        assert c.tags, c.id


def test_every_claim_is_accepted_by_the_verifier_front_end(claims: list[Claim]) -> None:
    for c in claims:
        prepare(c)  # raises ClaimError on an unknown game, a malformed formula or witness


def test_every_seed_text_is_cited_by_some_claim(claims: list[Claim]) -> None:
    cited = {c.source.seed for c in claims}
    on_disk = (
        {p.name for p in (SHARED / "seeds").glob("*.txt")} if (SHARED / "seeds").is_dir() else set()
    )
    assert set(SEED_FILES) | on_disk <= cited


def _math_rows() -> list[str]:
    lines = MATH_MD.read_text(encoding="utf-8").splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.startswith("## The claims in the source texts")
    )
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        if line.startswith("|") and not re.match(r"^\|\s*-", line):
            rows.append(line.strip("|").split("|")[0].strip())
    return rows[1:]  # the header row


@pytest.mark.skipif(not MATH_MD.is_file(), reason="MATH.md is not available on this machine")
def test_every_row_of_the_math_claims_table_has_a_claim_to_prove(claims: list[Claim]) -> None:
    rows = _math_rows()
    assert len(rows) >= 14
    unmapped = [r for r in rows if r not in ROW_TAGS]
    assert not unmapped, f"MATH.md rows without a tag in ROW_TAGS: {unmapped}"
    for row in rows:
        tagged = [c for c in _tagged(claims, ROW_TAGS[row]) if c.expect == "proved"]
        assert tagged, f"no claim for MATH.md row {row!r}"


def _value_claims_with(
    claims: list[Claim], spec: str, position: tuple[int, ...]
) -> list[tuple[Claim, int]]:
    out = []
    for c in claims:
        if c.kind == "value" and c.game == spec:
            for i, p in enumerate(c.positions):
                if (p if isinstance(p, tuple) else (p,)) == position:
                    out.append((c, i))
    return out


@pytest.mark.parametrize(("spec", "position", "value", "moves"), WORKED_EXAMPLES)
def test_every_worked_example_has_a_value_claim_with_the_texts_value_and_moves(
    claims: list[Claim],
    spec: str,
    position: tuple[int, ...],
    value: int | None,
    moves: list[tuple[int, ...]],
) -> None:
    found = _value_claims_with(claims, spec, position)
    assert found, f"no value claim for {spec} at {position}"
    for c, i in found:
        if value is not None:
            assert c.values[i] == value, c.id
        listed = {tuple(m) for m in c.winning_moves[i]} if c.winning_moves else set()
        assert set(moves) <= listed, c.id


def _heap_position_value(game: HeapGame, position: tuple[int, ...]) -> int:
    return reference.sum_value(game, position)


def _fixed_moves(game: HeapGame, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Non-splitting moves of a sum of heaps, the moved heap kept in its place (0 when emptied)."""
    for i, n in enumerate(position):
        for parts in game.options(n):
            if len(parts) <= 1:
                yield (*position[:i], parts[0] if parts else 0, *position[i + 1 :])


def test_worked_example_values_and_winning_moves_agree_with_the_reference(
    claims: list[Claim],
) -> None:
    checked = 0
    for c in _tagged(claims, "worked-example"):
        if c.kind != "value":
            continue
        game = parse_spec(str(c.game))
        for i, (pos, val) in enumerate(zip(c.positions, c.values, strict=True)):
            heaps = pos if isinstance(pos, tuple) else (pos,)
            if isinstance(game, HeapGame) and not game.splits:
                true = _heap_position_value(game, heaps)
                targets = set(_fixed_moves(game, heaps))
                winning = {q for q in targets if _heap_position_value(game, q) == 0}
            else:
                assert isinstance(game, Misere) and isinstance(game.base, HeapGame)
                true = reference.value(game, heaps)
                winning = {
                    q for q in _fixed_moves(game.base, heaps) if reference.value(game, q) == 0
                }
            assert true == val, (c.id, pos)
            if c.winning_moves:
                assert {tuple(m) for m in c.winning_moves[i]} == winning, (c.id, pos)
            checked += 1
    assert checked >= 25


def test_seed000_printed_half_heap_sequence_has_the_two_properties_the_text_states(
    claims: list[Claim],
) -> None:
    seq = _by_id(claims, "half-heap.seed000.sequence")
    assert seq.offset == 1 and len(seq.values) == 118
    s = {n: v for n, v in enumerate(seq.values, start=seq.offset)}  # heap -> printed nimber
    # "drop the first value, then take every second: the same sequence again"
    dropped = [s[n] for n in range(2, 119)]
    assert dropped[1::2] == [s[n] for n in range(1, 1 + len(dropped[1::2]))]
    # "the values at even positions are consecutive naturals"
    assert [s[n] for n in range(2, 119, 2)] == list(range(1, 60))


def test_seed000_printed_half_heap_values_agree_with_oeis_and_the_reference(
    claims: list[Claim],
) -> None:
    seq = _by_id(claims, "half-heap.seed000.sequence")
    table = reference.heap_table(_heap_game("half-heap"), 118)
    assert list(seq.values) == table[1:]
    if KNOWN_SEQUENCES.is_file():
        known = _known("take at most half")
        overlap = known["values"][1:]
        assert list(seq.values[: len(overlap)]) == overlap


def test_seed000_binary_table_is_transcribed_exactly(claims: list[Claim]) -> None:
    c = _by_id(claims, "half-heap.seed000.binary-table")
    assert list(c.positions) == [int(k, 2) for k in BINARY_TABLE]
    assert list(c.values) == [int(v, 2) for v in BINARY_TABLE.values()]
    table = reference.heap_table(_heap_game("half-heap"), 150)
    assert [table[p] for p in c.positions] == list(c.values)


def _known(name_part: str) -> dict[str, Any]:
    data = json.loads(KNOWN_SEQUENCES.read_text(encoding="utf-8"))
    return next(s for s in data["sequences"] if name_part in s["name"])


@pytest.mark.skipif(not KNOWN_SEQUENCES.is_file(), reason="known_sequences.json is not available")
def test_kayles_claims_agree_with_oeis_a002186(claims: list[Claim]) -> None:
    known = _known("Kayles")
    values = _by_id(claims, "kayles.seed000.values")
    assert values.offset == known["offset"] == 0
    assert list(values.values) == known["values"]
    period = _by_id(claims, "kayles.seed000.period")
    assert (period.period, period.preperiod) == (known["period"], known["preperiod"])
    # the exercise's answer: no row with pins is a P-position, within the published values
    assert all(v != 0 for v in known["values"][1:])


@cache
def _tromino(n: int) -> int:
    """The strip game computed directly: a tile on squares i+1..i+3 leaves i and n-3-i."""
    if n < 3:
        return 0
    return mex(_tromino(i) ^ _tromino(n - 3 - i) for i in range(n - 2))


def test_tromino_strip_of_1001_is_a_first_player_win_and_the_middle_move_wins(
    claims: list[Claim],
) -> None:
    for n in range(0, 1002, 50):  # bottom-up, so the recursion stays shallow
        _tromino(n)
    c = _by_id(claims, "tromino.seed004.strip-1001")
    assert c.game == "octal:0.007" and c.offset == 1001
    assert _tromino(1001) == c.values[0] != 0
    assert 499 + 3 + 499 == 1001 and _tromino(499) ^ _tromino(499) == 0
    small = _by_id(claims, "tromino.seed004.mirror-small")
    for pos, val in zip(small.positions, small.values, strict=True):
        heaps = pos if isinstance(pos, tuple) else (pos,)
        v = 0
        for h in heaps:
            v ^= _tromino(h)
        assert v == val, pos
    assert reference.heap_table(_heap_game("octal:0.007"), 200) == [_tromino(n) for n in range(201)]


def test_polygon_claims_agree_with_the_region_by_region_computation(claims: list[Claim]) -> None:
    for cid in ("polygon.seed004.values", "polygon.seed004.diameter"):
        c = _by_id(claims, cid)
        game = parse_spec(str(c.game))
        assert isinstance(game, PluginGame)
        for i, (n, val) in enumerate(zip(c.positions, c.values, strict=True)):
            assert Polygon.fast_value(n) == val, (cid, n)
            if c.winning_moves:
                true = {q for q in game.moves(n) if Polygon.fast_value(q) == 0}
                assert {tuple(m) for m in c.winning_moves[i]} == true, (cid, n)
                if n % 2 == 0:
                    half = (n - 2) // 2
                    diameter = (half, 0, half) if half > 2 else ()
                    assert diameter in true, n


def test_each_typo_has_a_refuted_claim_and_a_proved_corrected_twin(claims: list[Claim]) -> None:
    typos = _tagged(claims, "typo")
    assert {c.source.seed[:3] for c in typos} >= {"000", "003"}
    for t in typos:
        assert t.expect == "refuted", t.id
        twins = [c for c in claims if f"corrects:{t.group}" in c.tags]
        assert twins, t.id
        assert all(c.expect == "proved" and c.source.seed == t.source.seed for c in twins)


def test_seed000_ruby_range_typo_gives_no_moves_while_the_later_range_gives_the_printed_values(
    claims: list[Claim],
) -> None:
    def ruby_nimbers(lo: Any, count: int) -> list[int]:
        g: list[int] = []
        for n in range(count + 1):
            g.append(mex(g[m] for m in range(lo(n), n)))  # Ruby's n...m excludes the end
        return g[1:]

    printed = ruby_nimbers(lambda n: n + 1 // 2, 15)  # (n+1/2...n): Ruby's 1/2 is 0
    intended = ruby_nimbers(lambda n: (n + 1) // 2, 15)  # ((x+1)/2...x)
    assert printed == [0] * 15 != SEED000_FIRST_15
    assert intended == SEED000_FIRST_15
    typo, fixed = (
        _by_id(claims, "typo.seed000.ruby-range"),
        _by_id(claims, "typo.seed000.ruby-range.corrected"),
    )
    assert list(typo.values) == list(fixed.values) == SEED000_FIRST_15
    assert reference.heap_table(_heap_game(str(typo.game)), 15)[1:] == printed
    assert reference.heap_table(_heap_game(str(fixed.game)), 15)[1:] == intended


def test_seed003_x_minus_1_typo_fails_at_once_and_the_corrected_step_holds(
    claims: list[Claim],
) -> None:
    typo = _by_id(claims, "typo.seed003.x-minus-1")
    printed = parse(str(typo.formula), scalars=typo.variables, result="bool")
    assert not evaluate(printed, {"x": 0, "x1": 1, "r": 1, "k": 1})
    fixed = _by_id(claims, "typo.seed003.x-minus-1.corrected")
    node = parse(str(fixed.formula), scalars=fixed.variables, result="bool")
    for x1 in range(16):
        for r in range(16):
            for k in range(16):
                expected = not (x1 ^ r == 0 and 0 < k <= x1) or ((x1 - k) ^ r) != 0
                assert bool(evaluate(node, {"x1": x1, "r": r, "k": k})) == expected
