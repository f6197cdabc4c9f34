"""Follow one claim from ``verify_claim`` to its verdict: the modules it enters, how often.

Issue 21 asks that following one claim, each module is entered once, in the
order of the layers. This tool decides one claim in-process (what the worker
of :func:`nimproof.provers.isolate.decide` runs) under ``sys.setprofile`` and
counts, over the package's own modules (``nimproof.*``):

* ``modules``: the distinct modules that ran code for the claim;
* ``entries``: for each module, how often control passed into it from another
  module (a call whose innermost caller of the package is in a different
  module; the first entry, from outside, counts too). A module entered once is
  what the issue asks; ``entered_more_than_once`` counts the modules entered
  more often, ``max_entries`` the most entries of one module and
  ``repeated_entries`` all entries beyond the first of each. A generator of
  one module consumed by another enters its module at every item (its frame
  is called again), and is counted so. ``--verbose`` lists the modules entered
  more than once and every (caller function -> callee function) site of their
  entries;
* ``returns``: how often control comes back to a module it had already left
  (by a call or a return: ``A -> B -> A`` counts once), over the sequence of
  modules the running code is in; ``provers``: the same over the modules of
  ``nimproof.provers`` and ``nimproof.engines`` only. With ordinary calls, a
  flow in which every module is entered once still has returns (each callee
  returns to its caller): the entries are the measure of "once", the returns
  a second view;
* ``upward``: calls into a module that already has a frame lower on the stack,
  below a frame of another module (a call back up the layers), and ``edges``
  the distinct (caller, callee) pairs of such calls.

Two choices of the measure, and why:

* **Data** (:data:`_DATA`): the records every layer reads are not layers: a
  ``ClaimContext`` property, a verdict record, the deadline, the claim record
  and its kind declaration (``claims.model``, ``claims.kinds``: frozen
  declarations whose properties answer "which kind, which fields"), and the
  formula's node records (``expr.nodes``: constructors and structural
  queries on a tree, ``children()``, ``free_names()``,
  ``constant_subtrees()``). None of them calls into another module or
  decides anything. The game's description (``games.GameDescription``) is a
  frozen record of fields only: reading it is no call at all, so it needs no
  place here; it is built by a call into ``games/``, which counts. The formula
  *evaluator* and the compilers (``expr.evaluate``, ``expr.to_z3``,
  ``expr.to_ws1s``) are not data: calling them once per position is counted,
  and so are the games' move-description records of ``games.base`` (their
  methods answer questions about the rule), whose constructors count as
  entries too.
* **Inherited methods**: a method a class inherits from a base class in
  another module runs for the object's own module (the walker's ``walk``
  dispatching to a back end's handlers is the back end walking its own tree;
  a game family's inherited ``moves`` is the family's). Counting it in the
  base's module made every visitor and every game look like a call back up.

Figures (three claims; counts of calls, which do not depend on the load):
"before" is ``main`` at 5e6ad0e, "after" this checkout, both measured by this
tool (``--package``), 2026-11-25 with one core taken by a long computation:

===========================  =======  =======  ===========  ===========  ==========
claim                        modules  returns  entered > 1  max entries  repeated
===========================  =======  =======  ===========  ===========  ==========
refuted one-heap, before     25       58       8            6            20
refuted one-heap, after      25       24       2            3            3
refuted far, before          31       108      11           11           42
refuted far, after           31       42       6            3            9
proved, before               22       30       5            3            7
proved, after                22       20       2            2            2
===========================  =======  =======  ===========  ===========  ==========

No call goes back up, before or after. What changed:

* **one description of the game**: the claim is prepared with one call into
  ``games/`` (``describe_spec``: the family's parser, then
  ``Game.described``), which returns a frozen record of plain data
  (``GameDescription``: heap count, the parts and relation texts of a sum,
  the Nim flag, the finite takes, ...); the automata plan, the witness, the
  re-checks and the z3 encoding read it instead of each asking the game its
  own question (``games.base`` went from 11 entries to 3 on the far claim and
  from 5 to 2 on the one-heap one, ``games.heap`` from 5 to 3,
  ``games.misere`` from 6 to 3). A
  family that needs arguments says so when registered, so its parser reads
  them in one call (``games.args`` 2 to 1);
* **settle confirms in one pass**: the automata method turns MONA's
  counterexample into an unconfirmed candidate and calls nothing else;
  ``settle`` asks ``recheck.survey`` once for every fact (the claim at the
  position, the move's target and the listed moves in one batch, the
  terminal test, the legality of the move, the first position where the claim
  disagrees with the truth) and z3 once when the moves are too many to list
  (``provers.recheck`` 9 to 1, ``provers.settle`` 3 to 1,
  ``z3_bitvec.multi_heap`` 3 to 1);
* the claim's formula and its game's heap relations are parsed in one call
  when prepared (``expr.parser`` 2 to 1 on the one-heap and proved claims),
  its constant subtrees evaluated once then, only when it has some, and read
  by both compilers (``expr.evaluate`` 6 to 2 on the far claim, 3 to 1 on
  the one-heap one); whether the automata method is tried is read from its
  registry entry (``provers.automata`` 2 to 1).

What is still entered more than once (``--verbose`` names each site), and why:

* the family's module (``games.heap`` 2 on the proved claim, 3 on the
  refuted ones; ``games.misere`` 3 on the far claim): its parser builds the
  game, then the game describes itself (two calls of the registry into it:
  the description needs the game built), and a refutation asks the moves or
  the terminal test at one position (a batch call returning data, made when
  the position is known);
* ``games.base`` (2, and 3 on the far claim): the family builds its move
  description record (a constructor of ``games.base``), which then answers
  the description in one call; on the far claim, the heap rule's own move
  generation (the terminal test) asks its record for the lowest target;
* on the far claim only: ``expr.parser`` (2: the z3 solver view of a heap
  rule, its relation and terminal test, is parsed when an encoding first
  needs it), ``expr.evaluate`` (2: the constants when the claim is
  prepared, the claim at positions when it is re-checked) and ``expr.to_z3``
  (2: the z3 query's move relation is compiled by the move encoding shared
  with the z3 methods, the claim by the query).

Run it on any checkout of the package, for example the lead's ``main`` without
touching it (``python bench/trace_claim.py --package /work/main``); ``--json``
prints the figures as JSON. The three claims are a refuted one-heap claim, a
refuted multi-heap claim found far away (issue 18's misère Nim example) and a
proved claim. ``tests/test_trace_claim.py`` holds them to no call back up, to
the entries (each module still entered more than once by name) and to the
returns reached.
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
            "repeated_entries": sum(n - 1 for n in again.values()),
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


def _use_package(checkout: str) -> None:
    """Import ``nimproof`` from ``checkout``: an editable install's import hook would
    otherwise win over ``PYTHONPATH``, so it is dropped for this process."""
    sys.meta_path[:] = [
        f for f in sys.meta_path if "editable" not in str(getattr(f, "__module__", "")).lower()
    ]
    sys.path.insert(0, checkout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--verbose", action="store_true", help="list the upward calls, returns and entries"
    )
    parser.add_argument(
        "--package", metavar="DIR", help="trace the nimproof package of this checkout instead"
    )
    args = parser.parse_args(argv)
    if args.package:
        _use_package(args.package)
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
                f"entered more than once {row['entered_more_than_once']:3} (most "
                f"{row['max_entries']}, repeated entries {row['repeated_entries']})"
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
