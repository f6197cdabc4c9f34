"""Follow one claim from ``verify_claim`` to its verdict: the modules it visits and its bounces.

Issue 21 asks that following one claim, each module is entered once, in the
order of the layers. This tool decides one claim in-process (what the worker
of :func:`nimproof.provers.isolate.decide` runs) under ``sys.setprofile`` and
counts, over the package's own modules (``nimproof.*``):

* ``modules``: the distinct modules that ran code for the claim;
* ``returns``: how often control comes back to a module it had already left
  (by a call or a return: ``A -> B -> A`` counts once), over the sequence of
  modules the running code is in; ``provers``: the same over the modules of
  ``nimproof.provers`` and ``nimproof.engines`` only. ``--verbose`` lists the
  most frequent (module left, module returned to) pairs;
* ``upward``: calls into a module that already has a frame lower on the stack,
  below a frame of another module (a call back up the layers), and ``edges``
  the distinct (caller, callee) pairs of such calls.

Two choices of the measure, and why:

* **Data** (:data:`_DATA`): the records every layer reads are not layers: a
  ``ClaimContext`` property, a verdict record, the deadline, the claim record
  and its kind declaration (``claims.model``, ``claims.kinds``: frozen
  declarations whose properties answer "which kind, which fields"), and the
  formula's node records (``expr.nodes``: constructors and ``children()``).
  None of them calls into another module or decides anything. The formula
  *evaluator* and the compilers (``expr.evaluate``, ``expr.to_z3``,
  ``expr.to_ws1s``) are not data: calling them once per position is counted.
* **Inherited methods**: a method a class inherits from a base class in
  another module runs for the object's own module (the walker's ``walk``
  dispatching to a back end's handlers is the back end walking its own tree;
  a game family's inherited ``moves`` is the family's). Counting it in the
  base's module made every visitor and every game look like a call back up.

What produced the bounces (the three claims below, on ``main`` at 7fd3c13:
575, 1595 and 378 returns; 29, 152 and 28 calls back up), and what changed:

* calls back up, after the two choices above, were four real ones, now gone:
  a family's parser called back into the registry for its shared argument
  checks (now ``games/args.py``, below the registry) and, for ``misere:`` and
  ``sum:``, to parse its component games (the registry now parses them and
  hands the games over: ``registry.of_games``); the automata method handed
  its re-check a callback into itself to shrink MONA's counterexample (the
  method now shrinks first, then asks the re-check);
* most of the returns were record reads (the claim's kind asked on every
  decision) and visitor dispatch, which the two choices above no longer count;
* the rest are repeated downward calls into a library layer, each one listed
  by ``--verbose``: the automata method compiles each obligation through
  ``expr.to_ws1s`` and runs MONA once per obligation and once per shrinking
  round (the bisection's bound was compiled once per variable a round, now once
  a round: 657 -> about 510 returns on the far claim); ``games.heap`` asked
  for its move description (``moves_spec`` builds a ``games.base`` record
  each time) by ``settle``, ``recheck`` and the methods; ``expr.to_ws1s`` and
  ``expr.to_z3`` folding constants by exact evaluation; the pipeline asking
  the registry (``methods``) for each method's module. They are downward
  calls (no call back up) but each costs two returns; removing them needs
  each obligation set compiled and decided in one call, which is not done.

Run it on any checkout of the package, for example the lead's ``main`` without
touching it (``PYTHONPATH=/work/main python bench/trace_claim.py``); ``--json``
prints the figures as JSON. The three claims are a refuted one-heap claim, a
refuted multi-heap claim found far away (issue 18's misère Nim example) and a
proved claim. ``tests/test_trace_claim.py`` holds them to no call back up and
to the returns reached.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

#: label -> (game, keyword arguments of ``check_claim``); default timeout each.
CLAIMS: dict[str, tuple[str, dict[str, Any]]] = {
    "refuted one-heap": ("subtraction:1,2", {"grundy": "n % 4"}),
    "refuted multi-heap (far)": (
        "misere:nim",
        {
            "heaps": 4,
            "p_positions": "((xor(h) != 0) if all(x <= 1 for x in h) else (xor(h) == 0)) != "
            "(h[0] == 2**50 + 1 and h[1] == 2**50 + 1 and h[2] == 0 and h[3] == 0)",
        },
    ),
    "proved": ("subtraction:1,2", {"grundy": "n % 3"}),
}


@dataclass
class Trace:
    """What one claim's run visited."""

    modules: list[str] = field(default_factory=list)
    edges: Counter[tuple[str, str]] = field(default_factory=Counter)
    stack: list[str] = field(default_factory=list)
    returns: int = 0
    provers: int = 0
    #: (module left, module returned to) -> how often, for ``returns``.
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: module -> how often control entered it from another module (or from outside).
    entries: Counter[str] = field(default_factory=Counter)
    #: (caller module.function, callee module.function) -> how many of those entries.
    sites: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: the function of each frame on ``stack`` ("" outside the package).
    funcs: list[str] = field(default_factory=list)
    _seq: dict[str, tuple[str, set[str]]] = field(default_factory=dict)

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        module = _module_of(frame) if event == "call" else ""
        if event == "call":
            caller = next((m for m in reversed(self.stack) if m), "")
            if module and module not in self.modules:
                self.modules.append(module)
            if module and caller and module != caller and module in self.stack:
                self.edges[(caller, module)] += 1
            self._enter(module, frame.f_code.co_name)
            self.stack.append(module)
        elif self.stack:
            self.stack.pop()
            self.funcs.pop()
        self.returns += self._step("all", _logic)
        self.provers += self._step("provers", lambda m: _logic(m) and m.startswith(_DEEP))

    def _enter(self, module: str, function: str) -> None:
        """Count an entry when control passes into ``module`` from another logic module (or
        from outside the package), and push ``function`` beside the module."""
        self.funcs.append(f"{module}.{function}" if module else "")
        if not _logic(module):
            return
        i = next((i for i in range(len(self.stack) - 1, -1, -1) if _logic(self.stack[i])), -1)
        caller = self.stack[i] if i >= 0 else ""
        if caller == module:
            return
        self.entries[module] += 1
        self.sites[(self.funcs[i] if i >= 0 else "(outside)", self.funcs[-1])] += 1

    def _step(self, key: str, keep: Any) -> int:
        """1 when the innermost kept module changed to one left before (the sequence ``key``)."""
        now = next((m for m in reversed(self.stack) if keep(m)), "")
        prev, left = self._seq.get(key, ("", set()))
        if now == prev or not now:
            return 0
        if prev:
            left.add(prev)
        self._seq[key] = (now, left)
        if now in left and key == "all":
            self.pairs[(prev, now)] += 1
        return int(now in left)

    def summary(self) -> dict[str, Any]:
        again = {m: n for m, n in self.entries.most_common() if n > 1}
        return {
            "modules": len(self.modules),
            "returns": self.returns,
            "provers": self.provers,
            "upward_calls": sum(self.edges.values()),
            "edges": len(self.edges),
            "upward": sorted(f"{a} -> {b}" for a, b in self.edges),
            "returns_by_pair": {f"{a} -> {b}": n for (a, b), n in self.pairs.most_common(_SHOWN)},
            "entered_more_than_once": len(again),
            "max_entries": max(self.entries.values(), default=0),
            "entries": dict(again),
            "entry_sites": {
                f"{a} -> {b}": n
                for (a, b), n in self.sites.most_common()
                if n > 1 or b.rsplit(".", 1)[0] in again
            },
        }


_DEEP = ("nimproof.provers", "nimproof.engines")
#: Return pairs listed by ``--verbose`` and ``--json`` (the most frequent).
_SHOWN = 12
#: Records and the clock that every layer reads (a ``ClaimContext`` property, a verdict
#: record, the deadline): passing through them is not a return to a layer.
_DATA = (
    "nimproof.provers.context",
    "nimproof.verdict",
    "nimproof.provers.deadline",
    "nimproof.claims.model",
    "nimproof.claims.kinds",
    "nimproof.expr.nodes",
)


def _module_of(frame: FrameType) -> str:
    """The package module a called frame runs for ("" outside the package): the module that
    defines the function, except for a method inherited from a base class, which runs for
    the module of the object's own class (a walker's ``walk`` dispatching to the back end's
    handlers, a game family's inherited ``moves``: the object calls its own method)."""
    module = str(frame.f_globals.get("__name__", ""))
    code = frame.f_code
    if code.co_argcount and code.co_varnames[0] == "self":
        owner = type(frame.f_locals.get("self")).__module__
        if owner.startswith("nimproof"):
            module = owner
    return module if module.startswith("nimproof") else ""


def _logic(module: str) -> bool:
    return bool(module) and module not in _DATA


def trace(game: str, options: dict[str, Any]) -> tuple[str, Trace, float]:
    """The verdict's status on one claim, its trace and its seconds (the tracing included)."""
    from nimproof.api import check_claim  # lazy: the package under trace is chosen by PYTHONPATH
    from nimproof.provers import verify_claim  # lazy: idem

    claim = check_claim(game, **options)
    verify_claim(claim, timeout=60)  # warm caches and imports outside the trace
    t = Trace()
    t0 = time.perf_counter()
    sys.setprofile(t.profile)
    try:
        verdict = verify_claim(claim, timeout=60)
    finally:
        sys.setprofile(None)
    return verdict.status, t, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--verbose", action="store_true", help="list the upward calls")
    args = parser.parse_args(argv)
    import nimproof  # lazy: idem

    out: dict[str, Any] = {"package": nimproof.__file__, "claims": {}}
    for label, (game, options) in CLAIMS.items():
        status, t, seconds = trace(game, options)
        row = {"status": status, "seconds": round(seconds, 2), **t.summary()}
        out["claims"][label] = row
        if not args.json:
            print(
                f"{label:26} {status:8} modules {row['modules']:3}  returns to a module already "
                f"left {row['returns']:6} (provers/engines {row['provers']:5})  calls back up "
                f"{row['upward_calls']:4} ({row['edges']} distinct caller -> callee)  modules "
                f"entered more than once {row['entered_more_than_once']:3} (most {row['max_entries']})"
            )
            if args.verbose:
                for edge in row["upward"]:
                    print(f"    call back up: {edge}")
                for pair, n in row["returns_by_pair"].items():
                    print(f"    {n:5} returns {pair}")
                for module, n in row["entries"].items():
                    print(f"    {n:5} entries into {module}")
                for site, n in row["entry_sites"].items():
                    print(f"    {n:5} entered at {site}")
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
