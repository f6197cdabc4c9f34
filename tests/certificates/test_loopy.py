"""Certificates of the loopy method (Northcott's game): accepted as written, rejected once tampered.

The checker reads the game from its rows, enumerates the moves, solves the
small boards and writes its own WS1S (move relation, claimed set, rank, both
obligations); tampering: the claimed set changed (on small boards, or only far
away), the relation weakened, an obligation dropped, the rank changed or made
something other than naturals, the game's rows changed, a header statement that
would change what MONA proves.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import nimproof_check.loopy
from nimproof.engines.loopy import closure, fixpoint
from nimproof.games import parse_spec
from nimproof.provers.mona import available
from nimproof_check import check_path
from nimproof_check.loopy import boards, northcott_moves, outcomes, plain_header
from tests.certificates.helpers import certificate, edit_file, load, save
from tests.certificates.test_tampering import rejected
from tests.provers.helpers import claim

pytestmark = pytest.mark.skipif(not available(), reason="mona is not installed")

RANK = [["h[0]", "h[3]"], ["h[1]", "h[4]"]]
NORTHCOTT2 = claim(
    "p_positions",
    "northcott:2",
    "(h[0] ^ h[3]) == 0",
    {"loopy": {"rank": RANK, "max_total": 4}},
    heaps=6,
    id="cov-northcott2",
)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One certificate of the 2-row proof; each test works on its own copy."""
    return certificate(NORTHCOTT2, tmp_path_factory.mktemp("northcott"))


def _copy(written: Path, tmp_path: Path) -> Path:
    for item in written.parent.iterdir():
        target = tmp_path / item.name
        if item.is_dir():
            target.mkdir()
            for f in item.iterdir():
                (target / f.name).write_bytes(f.read_bytes())
        else:
            target.write_bytes(item.read_bytes())
    return tmp_path / written.name


def test_the_checkers_moves_and_outcomes_are_the_familys() -> None:
    for rows in (1, 2):
        game = parse_spec(f"northcott:{rows}")
        box = boards(3 * rows, 6 if rows == 2 else 9)
        for p in box:
            assert sorted(northcott_moves(rows, p)) == sorted(set(game.moves(p))), p
        mine = outcomes(rows, box)
        theirs = fixpoint(closure(game, box))
        assert all(mine[p] == theirs[p] for p in box)
        assert {"win", "loss"} <= set(mine.values())


def test_accepted_with_each_step_named(written: Path) -> None:
    data = load(written)
    assert data["game"] == {"kind": "northcott", "rows": 2, "misere": False}
    proof = data["proof"]
    assert proof["kind"] == "loopy" and proof["predicate"] == NORTHCOTT2.formula
    assert proof["rank"] == RANK and len(proof["answer"]) == 6
    assert [o["name"] for o in proof["obligations"]] == ["win", "answer"]
    report = check_path(written)
    assert report.status == "accepted", report
    text = "\n".join(report.checked)
    for words in ("retrograde", "win: valid", "answer: valid", "well-founded", "small instances"):
        assert words in text, text
    assert "M is the checker's" in text and "S is the checker's" in text


def _claimed(path: Path, formula: str) -> None:
    data = load(path)
    data["claim"]["formula"] = data["proof"]["predicate"] = formula
    save(path, data)


def test_a_changed_claimed_set_is_rejected(written: Path, tmp_path: Path) -> None:
    path = _copy(written, tmp_path)
    data = load(path)
    data["claim"]["formula"] = "(h[0] ^ h[3]) == 0 and h[1] == 0"  # the part keeps its own
    save(path, data)
    rejected(path, "not the claim's predicate")
    _claimed(path, "(h[0] ^ h[3]) == 0 and h[1] == 0")  # wrong on small boards
    rejected(path, "retrograde analysis says")
    _claimed(path, "(h[0] ^ h[3]) == 0 and h[1] != 100")  # wrong only far away
    rejected(path, "obligation win")


def test_a_weakened_relation_is_rejected(written: Path, tmp_path: Path) -> None:
    path = _copy(written, tmp_path)
    head = "pred M(var2 A0, var2 A1, var2 A2, var2 A3, var2 A4, var2 A5, " + ", ".join(
        f"var2 B{i}" for i in range(6)
    )
    # no retreat in the first row: the new gap may not exceed the old one
    edit_file(path, "header.mona", f"{head}) = ", f"{head}) = le(B0, A0) & (")
    edit_file(path, "header.mona", ";\npred S(", ");\npred S(")
    reason = rejected(path)
    assert "brute force" in reason or "move relation M" in reason, reason


def test_a_dropped_obligation_is_rejected(written: Path, tmp_path: Path) -> None:
    path = _copy(written, tmp_path)
    data = load(path)
    data["proof"]["obligations"] = [
        o for o in data["proof"]["obligations"] if o["name"] != "answer"
    ]
    save(path, data)
    rejected(path, "no obligation answer")
    data["proof"]["obligations"] = [
        {**o, "mona": "counterexample"} for o in load(written)["proof"]["obligations"]
    ]
    save(path, data)
    rejected(path, "recorded answer")


@pytest.mark.parametrize(
    ("rank", "why"),
    [
        ([["h[0]", "h[3]"]], "obligation answer"),  # gaps only: an undone retreat keeps them
        ([["h[1]", "h[4]"], ["h[0]", "h[3]"]], "obligation answer"),  # levels swapped
        ([["h[0] - h[3]"], ["h[1]", "h[4]"]], "natural-number term"),
        ([["h[0] == 1"]], "not a number"),
        ([], "no rank"),
    ],
)
def test_a_changed_rank_is_rejected(written: Path, tmp_path: Path, rank: list, why: str) -> None:
    path = _copy(written, tmp_path)
    data = load(path)
    data["proof"]["rank"] = rank
    save(path, data)
    rejected(path, why)


def test_the_game_and_the_header_are_the_checkers_business(written: Path, tmp_path: Path) -> None:
    path = _copy(written, tmp_path)
    data = load(path)
    tampered = copy.deepcopy(data)
    tampered["game"]["rows"] = 3
    save(path, tampered)
    rejected(path, "numbers")
    tampered["game"] = {"kind": "wythoff", "misere": False}
    save(path, tampered)
    assert check_path(path).status == "cannot check"
    save(path, data)
    # a MONA statement that restricts every set to empty would make any obligation valid
    edit_file(path, "header.mona", "ws1s;\n", "ws1s;\ndefaultwhere2(P) = P = {};\n")
    rejected(path, "other than a definition")
    with pytest.raises(Exception, match="reserves"):
        plain_header("pred ck_move(var2 A) = true;")


def test_moves_that_differ_from_brute_force_are_news(
    written: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MONA proves both obligations, but the checker's enumeration (here made wrong: no
    retreats) disagrees with the move relation on the small boards: rejected."""
    path = _copy(written, tmp_path)
    real = nimproof_check.loopy.northcott_moves

    def advances(rows: int, pos: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [q for q in real(rows, pos) if all(q[3 * i] <= pos[3 * i] for i in range(rows))]

    monkeypatch.setattr(nimproof_check.loopy, "northcott_moves", advances)
    monkeypatch.setattr(nimproof_check.loopy, "PYTHON_POSITIONS", 0)  # straight to MONA's check
    rejected(path, "brute force")


def test_the_checkers_encoding_is_its_own() -> None:
    levels = [[nimproof_check.loopy.read(t, ("h",), 6) for t in level] for level in RANK]
    text = nimproof_check.loopy.move_relation(2) + nimproof_check.loopy.lower(levels, 6)
    assert "ck_add" in text and "plus(" not in text and "pred M(" not in text
