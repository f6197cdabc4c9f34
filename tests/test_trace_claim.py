"""Following one claim to its verdict goes down the layers (issue 21): ``bench/trace_claim.py``.

The trace of each of the tool's three claims (a refuted one-heap claim, a
refuted multi-heap claim found far away, a proved claim) must keep its
verdict, make no call back up into a module already on the stack, enter no
module more often than after the batching of this session (the modules
entered more than once, the most entries of one module and all repeated
entries), and come back to a module already left at most as often as then
(with a little room). What is still entered more than once is listed by
``--verbose`` and explained in the tool's docstring.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bench import trace_claim

#: label -> (expected status, most returns, most modules entered more than once, most
#: entries of one module, most repeated entries). Measured: 58 / 8 / 6 / 20, 108 / 11 / 11 /
#: 42 and 30 / 5 / 3 / 7 (before: 226 / 11 / 42 / 104, about 515 / 17 / 49 / 248 and
#: 133 / 9 / 18 / 58).
EXPECTED = {
    "refuted one-heap": ("refuted", 64, 8, 6, 20),
    "refuted multi-heap (far)": ("refuted", 119, 11, 11, 42),
    "proved": ("proved", 33, 5, 3, 7),
}


@pytest.mark.parametrize("label", list(trace_claim.CLAIMS))
def test_one_claim_goes_down_the_layers_entering_each_module_few_times(label: str) -> None:
    game, options = trace_claim.CLAIMS[label]
    status, trace, _seconds = trace_claim.trace(game, options)
    summary = trace.summary()
    expected_status, returns, again, most, repeated = EXPECTED[label]
    assert status == expected_status
    assert summary["upward_calls"] == 0, summary["upward"]
    assert summary["returns"] <= returns, summary["returns_by_pair"]
    sites = summary["entry_sites"]
    assert summary["entered_more_than_once"] <= again, sites
    assert summary["max_entries"] <= most, sites
    assert summary["repeated_entries"] <= repeated, sites
    # the claim's own entry point is entered once, from outside
    assert trace.entries["nimproof.provers"] == 1


def _frame(module: str, function: str = "f") -> Any:
    code = SimpleNamespace(co_argcount=0, co_varnames=(), co_name=function)
    return SimpleNamespace(f_globals={"__name__": module}, f_code=code, f_locals={})


def test_the_tracer_sees_a_call_back_up() -> None:
    """The measure is not blind: a call into a module already on the stack is counted."""
    t = trace_claim.Trace()
    t.stack = ["nimproof.provers.settle", "nimproof.provers.recheck"]
    t.funcs = ["nimproof.provers.settle.a", "nimproof.provers.recheck.b"]
    t.modules = list(t.stack)
    t.profile(_frame("nimproof.provers.settle"), "call", None)
    assert t.summary()["upward"] == ["nimproof.provers.recheck -> nimproof.provers.settle"]


def test_the_tracer_counts_each_entry_and_its_site() -> None:
    """Entering a module again from another module counts, with the site; calls within a
    module, calls into data records and a generator resumed from another module are
    counted as what they are (no entry, no entry, one entry per resumption)."""
    t = trace_claim.Trace()
    t.profile(_frame("nimproof.provers", "verify_claim"), "call", None)
    for _ in range(3):  # settle -> recheck, three times
        t.profile(_frame("nimproof.provers.settle", "settle"), "call", None)
        t.profile(_frame("nimproof.provers.settle", "helper"), "call", None)  # same module
        t.profile(_frame("nimproof.provers.context", "prop"), "call", None)  # data
        t.profile(None, "return", None)  # type: ignore[arg-type]
        t.profile(_frame("nimproof.provers.recheck", "truth_at"), "call", None)
        t.profile(None, "return", None)  # type: ignore[arg-type]
        t.profile(None, "return", None)  # type: ignore[arg-type]
        t.profile(None, "return", None)  # type: ignore[arg-type]
    s = t.summary()
    assert s["entries"] == {"nimproof.provers.settle": 3, "nimproof.provers.recheck": 3}
    assert s["entered_more_than_once"] == 2 and s["max_entries"] == 3
    assert s["repeated_entries"] == 4
    assert t.entries["nimproof.provers"] == 1
    assert "nimproof.provers.context" not in t.entries
    site = "nimproof.provers.settle.helper -> nimproof.provers.recheck.truth_at"
    assert s["entry_sites"][site] == 3
