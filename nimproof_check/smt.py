"""Re-check an SMT certificate part with a second solver (cvc5), independent of z3.

Each query is an SMT-LIB 2 file as z3 printed it (``Solver.to_smt2()``) with
z3's answer. cvc5 must give the same answer for every query; a query z3
called ``unsat`` is a proof obligation ("no counterexample exists"). The part
must also hold an ``unsat`` query for each role its claim kind needs (both
local conditions of a P-position or Grundy claim, the identity itself), so
an obligation cannot be dropped unnoticed.
"""

from __future__ import annotations

from typing import Any

from nimproof_check.games import CannotCheck, Rejected

#: The roles (the prover's function that asked the query) that prove each claim kind.
REQUIRED_ROLES: dict[str, tuple[tuple[str, ...], ...]] = {
    "p_positions": (("condition_1",), ("condition_2",)),
    "grundy": (("condition_1",), ("condition_2",)),
    "identity": (("identity", "prove_identity"),),
    "periodic-formula": (("formula_start",),),
    "misere-repeat": (("repeat_start",),),
}


def solve(text: str, timeout: float) -> str:
    """cvc5's answer to one SMT-LIB 2 script: ``"sat"``, ``"unsat"`` or ``"unknown"``."""
    try:
        import cvc5
    except ImportError:  # pragma: no cover - a dependency of the package
        raise CannotCheck("cvc5 is not installed (pip install cvc5)") from None
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(max(1, int(timeout * 1000))))
    if "(set-logic" not in text:
        solver.setLogic("ALL")
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "certificate")
    answers = []
    try:
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            said = cmd.invoke(solver, sm).strip()
            if said:
                answers.append(said)
    except RuntimeError as exc:
        raise CannotCheck(f"cvc5 cannot read the query: {str(exc).splitlines()[0][:160]}") from None
    checks = [a.split()[0] for a in answers if a.split()[0] in ("sat", "unsat", "unknown")]
    if len(checks) != 1:
        raise Rejected(f"a query must contain exactly one check-sat (cvc5 printed {answers[:3]})")
    return checks[0]


#: A second solver's answer: tests replace it to force a disagreement.
SECOND_SOLVER = solve


def check_part(part: dict[str, Any], read: Any, timeout: float) -> list[str]:
    """Re-check one ``smt`` part; the lines of what was checked. Raises Rejected / CannotCheck."""
    kind = part.get("claim_kind")
    queries = part.get("queries")
    if not isinstance(queries, list):
        raise Rejected("the SMT part lists no queries")
    for roles in REQUIRED_ROLES.get(str(kind), ()):
        if not any(q.get("role") in roles and q.get("answer") == "unsat" for q in queries):
            raise Rejected(f"no unsat query for {' / '.join(roles)} (an obligation is missing)")
    if not queries:
        raise Rejected("the SMT part lists no queries")
    if kind not in REQUIRED_ROLES:
        raise CannotCheck(f"SMT parts of {kind} claims")
    agree = 0
    for q in queries:
        first = q.get("answer")
        if first not in ("sat", "unsat"):
            raise Rejected(f"query {q.get('file')}: z3's recorded answer {first!r}")
        second = SECOND_SOLVER(read(q["file"]), timeout)
        if second == "unknown":
            raise CannotCheck(f"cvc5 gave no answer on {q['file']} within {timeout:g} s")
        if second != first:
            raise Rejected(f"solvers disagree on {q['file']}: z3 says {first}, cvc5 says {second}")
        agree += 1
    return [f"{agree} SMT-LIB 2 queries: cvc5 gives z3's answer on each"]
