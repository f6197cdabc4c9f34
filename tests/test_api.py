"""The documented Python API (``nimproof.table``, ``value``, ``check``, ``period``, ``mine``,
``verify`` and the claim and verdict types) and ``python -m nimproof``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import nimproof
from nimproof.engines import reference
from nimproof.errors import UsageError
from nimproof.games import parse_spec


def test_table_is_a_dataframe_of_the_true_values() -> None:
    df = nimproof.table("subtraction:1,3,4", max_n=50)
    assert list(df.columns) == ["n", "grundy"] and len(df) == 51
    assert df.grundy.tolist() == reference.heap_table(parse_spec("subtraction:1,3,4"), 50)


def test_box_table_has_one_row_per_position() -> None:
    df = nimproof.table("staircase", heaps=2, max_heap=4)
    assert list(df.columns) == ["h0", "h1", "grundy", "p_position"] and len(df) == 25
    game = parse_spec("staircase")
    for row in df.itertuples():
        assert row.grundy == reference.value(game, (row.h0, row.h1))
        assert row.p_position == (row.grundy == 0)


def test_value_of_huge_nim_heaps_and_of_other_games() -> None:
    v = nimproof.value("nim", 10**30, 5)
    assert v.value == 10**30 ^ 5 and not v.p_position
    assert [m.after for m in v.winning_moves] == [(5,)]
    k = nimproof.value("knim:3", 5, 6)
    assert k.value == (5 % 4) ^ (6 % 4)


def test_check_proves_with_a_scope_and_refutes_with_a_rechecked_counterexample() -> None:
    proved = nimproof.check("knim:3", grundy="n % 4")
    assert isinstance(proved, nimproof.Verdict) and proved.status == "proved"
    assert isinstance(proved.scope, nimproof.Scope) and proved.scope.kind == "all"
    refuted = nimproof.check("nim", p_positions="h[0] == h[1]", heaps=3)
    assert refuted.status == "refuted"
    cx = refuted.counterexample
    assert isinstance(cx, nimproof.Counterexample) and cx.rechecked


def test_period_names_the_theorem() -> None:
    p = nimproof.period("dawsons-kayles")
    assert (p.status, p.period, p.preperiod) == ("proved", 34, 53)


def test_mine_writes_nothing_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = nimproof.mine("knim:{k}", params={"k": range(1, 3)}, max_n=40, verify=False)
    assert result.conjectures and list(tmp_path.iterdir()) == []


def test_verify_a_conjecture_file(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(
        '[[claim]]\nid = "k"\nstatement = "s"\nkind = "grundy"\ngame = "knim:2"\n'
        'formula = "n % 3"\nchecks = { exhaustive = { max_n = 40 } }\n',
        encoding="utf-8",
    )
    verdicts = nimproof.verify(path)
    assert list(verdicts) == ["k"] and verdicts["k"].status == "proved"


@pytest.mark.parametrize(
    "call",
    [
        lambda: nimproof.table("kaylse", max_n=3),
        lambda: nimproof.table("kayles"),
        lambda: nimproof.table("kayles", max_n=-1),
        lambda: nimproof.check("nim", grundy="n", p_positions="h[0] == 0"),
        lambda: nimproof.check("nim", p_positions="h[0] == 0"),
        lambda: nimproof.period("moore:2"),
        lambda: nimproof.verify("x", profile="bogus"),
    ],
)
def test_bad_input_is_a_usage_error(call: object) -> None:
    with pytest.raises(UsageError):
        call()


def test_every_public_name_is_documented() -> None:
    for name in nimproof.__all__:
        if name != "__version__":
            assert getattr(nimproof, name).__doc__, name


def test_python_dash_m_nimproof_is_the_command_line() -> None:
    def out(*cmd: str) -> str:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout

    script = str(Path(sys.executable).parent / "nimproof")
    assert out(sys.executable, "-m", "nimproof", "--version") == out(script, "--version")
    assert out(sys.executable, "-m", "nimproof", "--help") == out(script, "--help")


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (lambda: nimproof.table("kayles", max_n=10**15), "too large: at most 100,000,000"),
        (lambda: nimproof.table("kayles", max_n=-1), "at least 0"),
        (lambda: nimproof.table("kayles", max_n="ten"), "whole number"),
    ],
)
def test_an_absurd_bound_says_what_the_largest_allowed_value_is(
    call: Callable[[], object], needle: str
) -> None:
    with pytest.raises(UsageError, match=needle):
        call()
