"""Misère quotients: the literature's figures (tests/data/misere_quotients.toml), brute force, proofs."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from nimproof.api import misere_check, misere_quotient
from nimproof.errors import UsageError
from nimproof.misere.monoid import Monoid, find_failure
from nimproof.misere.quotient import MisereQuotient

DATA = Path(__file__).parent.parent / "data" / "misere_quotients.toml"
ROWS: list[dict[str, Any]] = tomllib.loads(DATA.read_text())["quotient"]


def _spec(row: dict[str, Any]) -> str:
    return str(row["game"])


def _param(row: dict[str, Any]) -> Any:
    marks = [pytest.mark.slow] if row.get("slow") else []
    return pytest.param(row, marks=marks, id=f"{row['game']}@{row['heaps']}")


def test_every_row_names_its_source_and_what_the_source_prints() -> None:
    for row in ROWS:
        assert row["kind"] in ("literature", "peer", "computed") and row["source"]
        if row["kind"] == "literature":
            assert row["from_source"] and set(row["from_source"]) <= set(row), row["game"]
        else:
            assert "from_source" not in row and "computed" in row["source"], row["game"]
        if row["kind"] == "peer":
            assert "peer" in row, row["game"]
        if "peer" in row:
            # A peer's figure is never presented as published.
            assert "peer-computed, not published" in row["peer"]["source"], row["game"]


@cache
def _quotient(spec: str, bound: int) -> MisereQuotient:
    return misere_quotient(spec, bound)


def _bound(row: dict[str, Any]) -> int:
    return int(row.get("max_heap", 200)) if row["heaps"] == "all" else int(row["heaps"])


@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_quotient_matches_the_data_file_and_brute_force(row: dict[str, Any]) -> None:
    bound = _bound(row)
    q = _quotient(_spec(row), bound)
    assert q.order == row["order"]
    assert [q.name(x) for x in q.p_portion] == row["p_portion"]
    if row["heaps"] == "all":
        assert q.proved_all and q.period is not None
        n0, p = q.period
        assert n0 == row.get("preperiod_length", len(row.get("preperiod", [])))
        if "preperiod" in row:
            assert [q.name(q.element(h)) for h in range(n0)] == row["preperiod"]
        assert [q.name(q.element(h)) for h in range(n0, n0 + p)] == row["period"]
    else:
        assert q.heaps == bound
        assert [q.name(x) for x in q.phi] == row["heap_map"]
    # Every sum of up to four heaps of total at most 30 (within the proved heaps).
    count, bad = misere_check(q, 4, 30)
    assert count >= bound if row["heaps"] != "all" else count > 1000
    assert bad == []


PEER_ROWS = [r for r in ROWS if "peer" in r]


def _peer_word(text: str) -> list[int]:
    """A word in MisereSolver's notation (``ab2c``: letters a-z then A-Z, exponents) as letter indices."""
    if text == "1":
        return []
    parts = re.findall(r"([a-zA-Z])(\d*)", text)
    assert "".join(a + e for a, e in parts) == text, text
    out: list[int] = []
    for ch, exp in parts:
        i = ord(ch) - ord("a") if ch.islower() else ord(ch) - ord("A") + 26
        out += [i] * int(exp or 1)
    return out


@pytest.mark.parametrize("row", [_param(r) for r in PEER_ROWS])
def test_peer_figures_match_field_by_field(row: dict[str, Any]) -> None:
    """The peer's quotient (MisereSolver, run locally; figures in the data file) is nimproof's.

    The peer's generators are heaps (its letter ``i`` is heap
    ``generators[i]``, not always nimproof's choice of generator heaps). The
    elements of those heaps generate nimproof's quotient, and every relation
    of the peer's presentation holds there, so sending letter ``i`` to heap
    ``generators[i]``'s element is a well-defined map from the peer's monoid
    onto nimproof's; with the same order it is an isomorphism. Under it the peer's
    P-portion is nimproof's and its heap map is nimproof's, heap by heap.
    """
    peer = row["peer"]
    q = _quotient(_spec(row), _bound(row))
    assert q.order == peer["order"]
    assert len(q.p_portion) == peer["p_size"] == len(peer["p_portion"])
    gens = [q.element(h) for h in peer["generators"]]
    assert _generated(q.monoid, gens) == set(range(q.order))

    def value(word: str) -> int:
        return q.monoid.product([gens[i] for i in _peer_word(word)])

    for relation in peer["relations"]:
        lhs, rhs = relation.split("=")
        assert value(lhs) == value(rhs), relation
    assert {value(w) for w in peer["p_portion"]} == set(q.p_portion)
    assert [value(w) for w in peer["heap_map"]] == [
        q.element(h) for h in range(len(peer["heap_map"]))
    ]
    if row["heaps"] == "all":
        assert q.proved_all
        assert q.period == (peer["preperiod_length"], peer["period_length"])
        assert len(peer["heap_map"]) >= peer["preperiod_length"] + peer["period_length"]
    else:
        assert len(peer["heap_map"]) == q.heaps + 1


def _generated(monoid: Monoid, gens: list[int]) -> set[int]:
    seen, frontier = {0}, [0]
    while frontier:
        x = frontier.pop()
        for g in gens:
            y = monoid.mul[x][g]
            if y not in seen:
                seen.add(y)
                frontier.append(y)
    return seen


def test_peer_word_notation_is_read_exactly() -> None:
    assert _peer_word("1") == []
    assert _peer_word("ab2c") == [0, 1, 1, 2]
    assert _peer_word("d12A") == [3] * 12 + [26]
    with pytest.raises(AssertionError):
        _peer_word("a-b")


def test_r8_presentation_is_plambecks() -> None:
    q = misere_quotient("octal:0.75")
    assert q.presentation() == "⟨a, b, c | a² = 1, bc = ab, c² = b², b³ = b⟩"
    assert q.generators == [1, 2, 5]
    assert q.window == 2 * 8 + 2 * 2 + 2 - 1


def test_outcomes_of_huge_sums_follow_the_proved_period() -> None:
    q = misere_quotient("octal:0.75")
    big = 10**15
    # Heaps far beyond the computed bound take the element of their residue.
    assert q.element(big) == q.element(8 + (big - 8) % 2)
    assert q.is_p([big, big]) == q.is_p([8 + (big - 8) % 2] * 2)


def test_an_unproved_quotient_refuses_heaps_beyond_its_bound() -> None:
    q = misere_quotient("kayles", 6)
    assert not q.proved_all
    with pytest.raises(UsageError, match="known only for heaps <= 6"):
        q.element(7)


def test_the_budget_stops_the_construction_with_a_reason() -> None:
    q = misere_quotient("dawsons-kayles", 40, max_order=100)
    assert q.heaps == 24 and q.order == 24 and not q.proved_all
    assert q.stopped.startswith("budget reached at heap 25: a candidate passed 100 elements")


@pytest.mark.parametrize("bad", [0, 10**6])
def test_absurd_heap_bounds_are_refused(bad: int) -> None:
    with pytest.raises(UsageError):
        misere_quotient("kayles", bad)


def test_the_proof_search_finds_a_wrong_p_portion_and_a_wrong_heap_map() -> None:
    q = misere_quotient("octal:0.75", 12)
    options = [[]] + [
        [tuple(sorted(parts)) for parts in _options("octal:0.75", h)] for h in range(1, 13)
    ]
    assert find_failure(q.monoid, q.phi, options) is None
    for x in range(q.order):
        flipped = Monoid(q.monoid.mul, q.monoid.p ^ {x})
        assert find_failure(flipped, q.phi, options) is not None
    for h in range(1, 13):
        for x in range(q.order):
            if x != q.phi[h]:
                wrong = [*q.phi[:h], x, *q.phi[h + 1 :]]
                assert find_failure(q.monoid, wrong, options) is not None, (h, x)


def _options(spec: str, h: int) -> list[tuple[int, ...]]:
    from nimproof.games.registry import parse_spec

    game: Any = parse_spec(spec)
    return [tuple(x for x in parts if x) for parts in game.options(h)]


def _game_options(spec: str, n: int) -> list[list[tuple[int, ...]]]:
    return [[]] + [sorted(set(_sorted_options(spec, h))) for h in range(1, n + 1)]


def _sorted_options(spec: str, h: int) -> list[tuple[int, ...]]:
    return [tuple(sorted(parts)) for parts in _options(spec, h)]


def test_least_failure_is_none_exactly_when_the_proof_finds_nothing() -> None:
    from nimproof.misere.monoid import least_failure

    q = misere_quotient("kayles", 30)
    options = _game_options("kayles", 30)
    assert least_failure(q.monoid, q.phi, options) is None
    for x in range(q.order):
        flipped = Monoid(q.monoid.mul, q.monoid.p ^ {x})
        assert (least_failure(flipped, q.phi, options) is None) == (
            find_failure(flipped, q.phi, options) is None
        )


def test_the_least_failure_is_really_mispredicted_and_every_smaller_sum_is_not() -> None:
    """Checked against outcomes played out by the brute force, which shares no code with the search."""
    from nimproof.misere.bruteforce import misere_p
    from nimproof.misere.monoid import least_failure, lex_key

    q = misere_quotient("dawsons-kayles", 16)
    options = _game_options("dawsons-kayles", 16)
    memo: dict[tuple[int, ...], bool] = {}

    def play(w: tuple[int, ...]) -> bool:
        return misere_p("misere:dawsons-kayles", w, memo)

    checked = 0
    for x in range(q.order):
        flipped = Monoid(q.monoid.mul, q.monoid.p ^ {x})
        failure = least_failure(flipped, q.phi, options)
        assert failure is not None
        predicted = flipped.product([q.phi[h] for h in failure]) in flipped.p
        assert play(failure) != predicted, failure
        # No smaller sum (in the lexicographic order) of at most as many tokens is mispredicted.
        for w in _sums_up_to(sum(failure), 16):
            if lex_key(w) < lex_key(failure):
                assert (flipped.product([q.phi[h] for h in w]) in flipped.p) == play(w), w
                checked += 1
    assert checked > 100


def _sums_up_to(total: int, top: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for h in range(1, top + 1):
        out = [w + (h,) * k for w in out for k in range((total - sum(w)) // h + 1)]
    return out


def test_recalibration_grows_dawsons_kayles_past_heap_25() -> None:
    """Heap 25 is where candidates from the old quotient alone failed; recalibration proves 144 elements."""
    q = misere_quotient("dawsons-kayles", 26)
    assert q.heaps == 26 and q.orders[24] == 24 and q.orders[25] == 144
    assert misere_check(q, 3, 40)[1] == []


def test_the_theorem_window_depends_on_how_many_heaps_a_move_leaves() -> None:
    from nimproof.misere.quotient import TheoremWindow, theorem_digits

    # Octal codes keep Plambeck and Siegel's window 2 n0 + 2 p + t - 1.
    assert theorem_digits((0, 7, 7)) == TheoremWindow(2, 2, True)
    assert TheoremWindow(2, 2, True).last_heap(71, 12) == 2 * 71 + 2 * 12 + 2 - 1
    # A hexadecimal digit (three heaps) or a digit before the point takes the longer one.
    assert theorem_digits((0, 11, 1)) == TheoremWindow(2, 3, False)
    assert TheoremWindow(2, 3, False).last_heap(11, 2) == 3 * 11 + 3 * 2 + 2 - 1
    assert theorem_digits((4, 3)) == TheoremWindow(1, 2, False)
    assert TheoremWindow(1, 2, False).last_heap(0, 2) == 2 * 1 + 2 * 2 + 1 - 1
    assert theorem_digits((1, 7)) is None and theorem_digits(None) is None


def test_a_hexadecimal_quotient_is_proved_only_once_the_longer_window_is_seen() -> None:
    q = misere_quotient("octal:0.b1", 200)
    assert q.proved_all and q.period == (11, 2) and q.window == 40
    # The octal window (2 * 11 + 2 * 2 + 2 - 1 = 27) is not enough for a code leaving three heaps.
    short = misere_quotient("octal:0.b1", 39)
    assert short.period == (11, 2) and not short.proved_all
    with pytest.raises(UsageError):
        short.element(40)


def test_heaps_beyond_the_longer_window_follow_the_period_by_brute_force() -> None:
    """4.33 (window heap 11): sums of three heaps up to total 30, heaps past 11 read through the period."""
    q = _quotient("octal:4.33", 200)
    assert q.proved_all and q.window == 11
    count, bad = misere_check(q, 3, 30)
    assert count > 1000 and bad == []
