"""Following one claim to its verdict goes down the layers (issue 21): ``bench/trace_claim.py``.

The trace of each of the tool's three claims (a refuted one-heap claim, a
refuted multi-heap claim found far away, a proved claim) must keep its
verdict, make no call back up into a module already on the stack, enter no
module more often than measured (the modules entered more than once, the most
entries of one module, all repeated entries, and each module still entered
more than once by name), and come back to a module already left at most as
often as then (with a little room). What is still entered more than once is
listed by ``--verbose`` and explained in the tool's docstring.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bench import trace_claim

#: label -> (expected status, most returns, most modules entered more than once, most
#: entries of one module, most repeated entries). Measured after one description of the
#: game, the one-pass settle and the batched parse and folding: 24 / 2 / 3 / 3, 42 / 6 / 3 / 9
#: and 20 / 2 / 2 / 2 (before, on main at 5e6ad0e: 58 / 8 / 6 / 20, 108 / 11 / 11 / 42 and
#: 30 / 5 / 3 / 7). The entries are counts of calls and do not vary between runs; the returns
#: get a little room.
EXPECTED = {
    "refuted one-heap": ("refuted", 27, 2, 3, 3),
    "refuted multi-heap (far)": ("refuted", 46, 6, 3, 9),
    "proved": ("proved", 23, 2, 2, 2),
}

#: The modules still entered more than once, and how often (each named, with why, in
#: ``bench/trace_claim.py``): a new repeat, or one more entry of these, fails.
STILL_REPEATED = {
    "refuted one-heap": {"nimproof.games.heap": 3, "nimproof.games.base": 2},
    "refuted multi-heap (far)": {
        "nimproof.games.heap": 3,
        "nimproof.games.misere": 3,
        "nimproof.games.base": 3,
        "nimproof.expr.parser": 2,
        "nimproof.expr.evaluate": 2,
        "nimproof.expr.to_z3": 2,
    },
    "proved": {"nimproof.games.heap": 2, "nimproof.games.base": 2},
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
    for module, n in summary["entries"].items():
        assert n <= STILL_REPEATED[label].get(module, 1), (module, sites)
    # the claim's own entry point is entered once, from outside; the confirmation of the
    # automata method's candidate is one call into settle and one into recheck
    assert trace.entries["nimproof.provers"] == 1
    for module in (
        "nimproof.provers.settle",
        "nimproof.provers.recheck",
        "nimproof.provers.automata",
    ):
        assert trace.entries[module] <= 1, sites


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
