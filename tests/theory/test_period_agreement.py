"""Every entry point proves the same periods: ``nimproof period``, ``nimproof.period()``, the
``periodicity`` proof method and the atlas all ask :mod:`nimproof.theory.periodicity`.

* Every ``periodic`` claim of the corpus (``conjectures/``): the method proves
  it for every heap, and the command (through the CLI's ``main``) and the API
  report the method's least period and preperiod, proved by the same theorem.
* The atlas's families (``nimproof/atlas/families.py``: octal codes, ``4.x``
  codes, subtraction sets): a period the API proves holds on the compiled
  engine's table four times past the theorem's bound; where the atlas row
  proves a period, the API and
  the command prove the same one, and the method proves the claim "this is
  the least period and preperiod"; where the API proves a period within the
  atlas's table, the atlas proves it too. A sample runs by default, every
  game of the families in the slow run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import nimproof
from nimproof.atlas import analyse
from nimproof.atlas.families import family_specs
from nimproof.claims import Claim, load_paths
from nimproof.cli.main import main
from nimproof.engines import grundy_table
from nimproof.games import parse_spec
from nimproof.provers import periodicity
from nimproof.provers.context import prepare
from nimproof.verdict import MethodResult
from tests.provers.helpers import claim

ROOT = Path(__file__).resolve().parents[2]
#: Heaps of the atlas rows compared here (the atlas's own default is far larger).
ATLAS_N = 1 << 12
#: Heaps given to the command and the API for the atlas's games.
PERIOD_N = 2000


def _periodic_claims() -> list[Claim]:
    return [c for c in load_paths([ROOT / "conjectures"]) if c.kind == "periodic"]


def _method(c: Claim) -> MethodResult:
    return periodicity.run(prepare(c), c.checks.get("periodicity", {}))  # type: ignore[arg-type]


def _command(capsys: pytest.CaptureFixture[str], spec: str, max_n: int) -> dict[str, Any]:
    assert main(["period", spec, "--max-n", str(max_n), "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def _same_answer(cli: dict[str, Any], api: nimproof.Period) -> None:
    """The command's JSON and the API's record say the same."""
    assert (cli["status"], cli.get("period"), cli.get("preperiod"), cli.get("saltus")) == (
        api.status,
        api.period,
        api.preperiod,
        api.saltus,
    )
    assert (cli.get("theorem"), cli.get("bound")) == (api.theorem, api.bound)


CORPUS = _periodic_claims()


def test_the_corpus_has_periodic_claims_of_every_theorem() -> None:
    games = {c.game for c in CORPUS}
    assert {"kayles", "octal:4.7", "octal:0.f", "knim:3", "subtraction:all-but:2,5"} <= games


@pytest.mark.parametrize("c", CORPUS, ids=lambda c: c.id)
def test_command_api_and_method_agree_on_the_corpus(
    c: Claim, capsys: pytest.CaptureFixture[str]
) -> None:
    result = _method(c)
    assert result.status == "proved" and result.scope is not None, result.detail
    assert result.scope.kind == "all", result.detail
    least = (result.stats["least_period"], result.stats["least_preperiod"])
    p = c.period or 1
    saltus = c.saltus * least[0] // p  # the least period's saltus
    max_n = max(PERIOD_N, int(c.checks.get("periodicity", {}).get("max_n", 0)))
    api = nimproof.period(c.game or "", max_n=max_n)
    _same_answer(_command(capsys, c.game or "", max_n), api)
    assert (api.status, api.period, api.preperiod, api.saltus) == ("proved", *least, saltus)
    _holds_far_beyond(c.game or "", api)
    if least == (p, c.preperiod or 0):  # the same relation: the same theorem and window
        assert api.theorem == result.stats["theorem"]


def _atlas_sample() -> list[str]:
    octal = family_specs("octal", None)
    split = family_specs("octal4", None)
    subtraction = family_specs("subtraction", None)
    return octal[::23] + split[::23] + subtraction[::17]


def _holds_far_beyond(spec: str, api: nimproof.Period) -> None:
    """A proved relation holds on a table four times past the theorem's bound, computed by
    the compiled engine (the API's small tables come from the reference implementation)."""
    assert api.period is not None and api.preperiod is not None and api.bound is not None
    p, n0, s = api.period, api.preperiod, api.saltus or 0
    table = grundy_table(parse_spec(spec), max(4 * api.bound, 3000))  # type: ignore[arg-type]
    assert all(int(table[n + p]) == int(table[n]) + s for n in range(n0, len(table) - p)), spec


def _agree_with_atlas(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    row = analyse(spec, ATLAS_N)
    assert row["status"] != "error", row["error"]
    api = nimproof.period(spec, max_n=PERIOD_N)
    _same_answer(_command(capsys, spec, PERIOD_N), api)
    if api.status == "proved":
        _holds_far_beyond(spec, api)
    if row["status"] == "proved":
        assert (api.status, api.period, api.preperiod, api.saltus) == (
            "proved",
            row["period"],
            row["preperiod"],
            0,
        ), row
        assert api.theorem == row["theorem"]
        least = claim(
            "periodic",
            spec,
            None,
            {"periodicity": {}},
            period=row["period"],
            preperiod=row["preperiod"],
            least=True,
        )
        result = _method(least)
        assert (result.status, result.scope and result.scope.kind) == ("proved", "all"), (
            result.detail
        )
    elif api.status == "proved" and api.saltus == 0 and (api.bound or 0) < ATLAS_N // 2:
        # A period the theorem proves from half the atlas's table: the atlas proves it too.
        pytest.fail(f"{spec}: the API proves {api} but the atlas row says {row['status']}")


@pytest.mark.parametrize("spec", _atlas_sample())
def test_command_api_method_and_atlas_agree_on_a_sample_of_the_atlas(
    spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _agree_with_atlas(spec, capsys)


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec",
    [
        s
        for f in ("octal", "octal4", "subtraction")
        for s in family_specs(f, None)
        if s not in _atlas_sample()
    ],
)
def test_command_api_method_and_atlas_agree_on_every_atlas_game(
    spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _agree_with_atlas(spec, capsys)
