"""Following one claim to its verdict goes down the layers (issue 21): ``bench/trace_claim.py``.

The trace of each of the tool's three claims (a refuted one-heap claim, a
refuted multi-heap claim found far away, a proved claim) must keep its
verdict, make no call back up into a module already on the stack, and come
back to a module already left at most as often as after the restructuring
(the figures measured then, with a little room for the deadline's polling).
What the remaining returns are is listed by ``--verbose`` and explained in
the tool's docstring.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bench import trace_claim

#: label -> (expected status, most returns to a module already left).
EXPECTED = {
    "refuted one-heap": ("refuted", 250),
    "refuted multi-heap (far)": ("refuted", 560),
    "proved": ("proved", 150),
}


@pytest.mark.parametrize("label", list(trace_claim.CLAIMS))
def test_one_claim_goes_down_the_layers(label: str) -> None:
    game, options = trace_claim.CLAIMS[label]
    status, trace, _seconds = trace_claim.trace(game, options)
    summary = trace.summary()
    expected_status, most_returns = EXPECTED[label]
    assert status == expected_status
    assert summary["upward_calls"] == 0, summary["upward"]
    assert summary["returns"] <= most_returns, summary["returns_by_pair"]


def test_the_tracer_sees_a_call_back_up() -> None:
    """The measure is not blind: a call into a module already on the stack is counted."""
    t = trace_claim.Trace()
    t.stack = ["nimproof.provers.settle", "nimproof.provers.recheck"]
    t.modules = list(t.stack)

    frame = SimpleNamespace(
        f_globals={"__name__": "nimproof.provers.settle"},
        f_code=(lambda: None).__code__,
        f_locals={},
    )
    t.profile(frame, "call", None)  # type: ignore[arg-type]
    assert t.summary()["upward"] == ["nimproof.provers.recheck -> nimproof.provers.settle"]
