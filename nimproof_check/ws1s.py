"""Re-check a WS1S (MONA) certificate part with obligations written here, not the prover's.

The part's header defines, over numbers written as finite sets of bit
positions (bit ``p`` set when ``p`` is in the set):

* ``move(X0, Y0, X1, Y1, ...)``: one move from position ``X`` to ``Y``;
* ``terminal(X0, ...)``: no move from ``X``;
* ``S(X0, ...)`` (P-position claims) or ``G(X0, ..., V)`` (Grundy claims: ``V``
  is the claimed value) or ``F(X0, ...)`` (identities).

The checker adds its own primitives (``ck_lt``, ``ck_small``) and proves with
MONA, for **every** position:

* well-foundedness: every move lowers the heaps in the order that compares the
  last heap first (so every play ends);
* ``terminal`` is exactly "no move";
* P-position claims: no move from ``S`` to ``S``; every position outside ``S``
  (misère: and not terminal) has a move into ``S``; misère: no terminal
  position is in ``S``;
* Grundy claims: ``G`` is a function of the position; no move joins two
  positions of equal ``G``; every smaller value is reached by a move (misère:
  from non-terminal positions, and a terminal position has value 1);
* identities: ``F`` holds everywhere;

and, on every position whose heaps are below ``2**k`` (small instances), that
``move``, ``terminal`` and ``S``/``G`` agree with a brute-force enumeration of
the game's moves and values (:mod:`.games`). The prover's own obligations
named ``guard`` / ``rule-guard`` (the formula compiler's side conditions)
are re-run as written and must be valid.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from itertools import combinations, product
from typing import Any

from nimproof_check.games import CannotCheck, Rejected, Values, check_game, lex_order, moves

PRIMITIVES = """
pred ck_lt(var2 A, var2 B) =
  ex1 p: (p in B & p notin A & (all1 q: q > p => (q in A <=> q in B)));
"""

#: Small instances: at most this many positions in the box of heaps below 2**k, and at most
#: this many moves inside it (MONA's parser and BDD tables bound the size of one formula).
BOX_POSITIONS = 256
BOX_MOVES = 600


def run_mona(text: str, timeout: float) -> tuple[str, str]:
    """MONA's answer to ``text``: ``("valid" | "counterexample" | "unsatisfiable" | "error", output)``."""
    exe = shutil.which("mona")
    if exe is None:
        raise CannotCheck("mona is not installed (apt-get install mona)")
    with tempfile.TemporaryDirectory(prefix="nimproof-check-") as tmp:
        path = os.path.join(tmp, "check.mona")
        with open(path, "w", encoding="ascii") as fh:
            fh.write(text)
        for _ in range(3):  # MONA 1.4 now and then segfaults on a formula it then decides
            try:
                proc = subprocess.run(
                    [exe, "-q", path], capture_output=True, text=True, timeout=timeout, check=False
                )
            except subprocess.TimeoutExpired:
                raise CannotCheck(f"MONA did not answer within {timeout:g} s") from None
            if proc.returncode >= 0 or proc.returncode == -6:
                break
        else:
            raise CannotCheck(f"MONA was killed by signal {-proc.returncode} three times")
    out = proc.stdout.lstrip()
    if proc.returncode in (-6, 134) or "out of memory" in out:
        raise CannotCheck("MONA ran out of room (automaton too large)")
    if proc.returncode != 0:
        return "error", out[:300]
    for word in ("valid", "unsatisfiable"):
        if out.startswith(f"Formula is {word}"):
            return word, out
    if out.startswith("A counter-example"):
        return "counterexample", out
    return "error", out[:300]


#: A header may only define predicates and macros (a MONA ``assert``, ``defaultwhere`` or a
#: top-level formula would change what every formula after it means).
_STATEMENT = re.compile(r"\s*(ws1s|pred|macro)\b")


def plain_header(header: str) -> str:
    """``header`` when it only declares the logic and defines predicates; Rejected otherwise."""
    if "ck_" in header:
        raise Rejected("the header defines names the checker reserves (ck_...)")
    for statement in header.split(";"):
        if statement.strip() and not _STATEMENT.match(statement):
            raise Rejected(
                f"the header has a statement other than a definition: {statement[:60]!r}"
            )
    return header


def _vars(prefix: str, h: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(h)]


def _set(n: int) -> str:
    return "{" + ",".join(str(p) for p in range(n.bit_length()) if n >> p & 1) + "}"


#: The checker's own reading of a Zeckendorf set: no two adjacent positions (bit ``p``
#: stands for the Fibonacci number F(p + 2): 1, 2, 3, 5, 8, ...). On such sets the order
#: ``ck_lt`` (highest differing position) is the order of the numbers, as in binary.
ZECKENDORF = """
pred ck_zv(var2 A) = all1 p: p in A => p + 1 notin A;
"""

NUMERATIONS = ("binary", "zeckendorf")


class Frame:
    """How the checker writes positions: the numeration, the heaps, the game's move order.

    In Zeckendorf numeration every position variable is restricted to sets with no two
    adjacent positions (``ck_zv``): the game is the header's ``move`` between such sets.
    """

    def __init__(self, h: int, numeration: str = "binary", order: list[int] | None = None):
        self.h = h
        self.zeck = numeration == "zeckendorf"
        self.order = order if order is not None else list(reversed(range(h)))

    def dom(self, names: list[str]) -> str:
        """``"ck_zv(A) & ... & "`` for the position variables ``names`` (empty in binary)."""
        return "".join(f"ck_zv({v}) & " for v in names) if self.zeck else ""

    def number(self, n: int) -> str:
        """The set that writes ``n`` in this numeration."""
        return _set(n) if not self.zeck else _zset(n)

    def box(self, k: int) -> list[int]:
        """The numbers whose set lies below position ``k``."""
        if not self.zeck:
            return list(range(1 << k))
        fib = [1, 2]
        while len(fib) < k + 1:
            fib.append(fib[-1] + fib[-2])
        return list(range(fib[k] if k else 1))


def _zset(n: int) -> str:
    """The Zeckendorf set of ``n`` (greedy: the largest Fibonacci number first)."""
    fib = [1, 2]
    while fib[-1] <= n:
        fib.append(fib[-1] + fib[-2])
    out = []
    for p in reversed(range(len(fib))):
        if fib[p] <= n:
            out.append(p)
            n -= fib[p]
    return "{" + ",".join(str(p) for p in sorted(out)) + "}"


def obligations(
    kind: str, h: int, misere: bool, frame: Frame | None = None, moore: int = 0
) -> dict[str, str]:
    """The checker's own obligations (MONA text after the header) for a claim of ``kind``.

    ``moore`` (Moore's Nim with ``moore < h``): obligation ``b`` is written as "some move
    that changes at most ``moore`` heaps lands in S", one disjunct per set of heaps, with
    the other heaps of the target equal to the position's. Each disjunct names a move of
    the header's relation, so the obligation implies "some move lands in S"; MONA decides it
    far faster than one quantifier over every heap of the target.
    """
    f = frame if frame is not None else Frame(h)
    xs, ys = _vars("X", h), _vars("Y", h)
    X, Y = ", ".join(xs), ", ".join(ys)
    inter = ", ".join(v for pair in zip(xs, ys, strict=True) for v in pair)
    dx, dxy = f"var2 {X};\n", f"var2 {X}, {Y};\n"
    domx, domxy = f.dom(xs), f.dom(xs + ys)
    if kind == "identity":
        return {"identity": dx + f"{domx}true => F({X});\n"}
    lower = " | ".join(
        "("
        + " & ".join([f"ck_lt({ys[i]}, {xs[i]})", *[f"{ys[j]} = {xs[j]}" for j in f.order[:idx]]])
        + ")"
        for idx, i in enumerate(f.order)
    )
    some_move = f"(ex2 {Y}: {f.dom(ys)}move({inter}))"
    out = {
        "well-founded": dxy + f"{domxy}move({inter}) => ({lower});\n",
        "terminal": dx + f"{domx}true => (terminal({X}) <=> ~{some_move});\n",
    }
    live = f" & ~terminal({X})" if misere else ""
    if kind == "p_positions":
        out["a"] = dxy + f"{domxy}S({X}) & move({inter}) => ~S({Y});\n"
        into = f"(ex2 {Y}: {f.dom(ys)}move({inter}) & S({Y}))"
        if 0 < moore < h:
            into = " | ".join(
                _changing(xs, ys, chosen, f) for chosen in combinations(range(h), moore)
            )
        out["b"] = dx + f"{domx}~S({X}){live} => ({into});\n"
        if misere:
            out["c"] = dx + f"{domx}terminal({X}) => ~S({X});\n"
        return out
    if kind != "grundy" or f.zeck:
        raise CannotCheck(
            f"WS1S parts of {kind} claims" + (" in Zeckendorf numeration" if f.zeck else "")
        )
    out["function"] = f"var2 {X}, V, W;\n(ex2 U: G({X}, U)) & (G({X}, V) & G({X}, W) => V = W);\n"
    out["g1"] = f"var2 {X}, {Y}, V;\nG({X}, V) & move({inter}) => ~G({Y}, V);\n"
    out["g2"] = (
        f"var2 {X}, V, W;\nG({X}, W) & ck_lt(V, W){live} => (ex2 {Y}: move({inter}) & G({Y}, V));\n"
    )
    if misere:
        out["g0"] = dx + f"terminal({X}) => G({X}, {{0}});\n"
    return out


def _changing(xs: list[str], ys: list[str], chosen: tuple[int, ...], f: Frame) -> str:
    """ "A move that changes at most the ``chosen`` heaps lands in S" (the others stay)."""
    target = [ys[i] if i in chosen else xs[i] for i in range(len(xs))]
    bound = [ys[i] for i in chosen]
    inter = ", ".join(v for pair in zip(xs, target, strict=True) for v in pair)
    return f"(ex2 {', '.join(bound)}: {f.dom(bound)}move({inter}) & S({', '.join(target)}))"


def box_width(h: int, game: dict[str, Any] | None = None, frame: Frame | None = None) -> int:
    """The k of the small instances: heaps whose set lies below position k, at most
    BOX_POSITIONS positions and (with ``game``) at most BOX_MOVES moves inside the box."""
    f = frame if frame is not None else Frame(h)
    k = 1
    while len(f.box(k + 1)) ** h <= BOX_POSITIONS and k < (7 if f.zeck else 5):
        if game is not None and len(_pairs(game, h, k + 1, f)) > BOX_MOVES:
            break
        k += 1
    return k


def _pairs(
    game: dict[str, Any], h: int, k: int, frame: Frame
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    box = list(product(frame.box(k), repeat=h))
    inbox = set(box)
    return [(p, q) for p in box for q in moves(game, p) if q in inbox]


def instances(kind: str, h: int, game: dict[str, Any], frame: Frame | None = None) -> str:
    """MONA text: on every position whose heaps' sets lie below position k, the header's
    relations equal the brute-force ones (move, terminal, S or G)."""
    f = frame if frame is not None else Frame(h)
    k = box_width(h, game, f)
    box = list(product(f.box(k), repeat=h))
    values = Values(game)
    xs, ys = _vars("X", h), _vars("Y", h)
    small = " & ".join(f"ck_small({v})" for v in xs)

    def at(vs: list[str], pos: tuple[int, ...]) -> str:
        return " & ".join(f"{v} = {f.number(n)}" for v, n in zip(vs, pos, strict=True))

    pairs = _pairs(game, h, k, f)
    inter = ", ".join(v for pair in zip(xs, ys, strict=True) for v in pair)
    X = ", ".join(xs)
    move_cases = " | ".join(f"({at(xs, p)} & {at(ys, q)})" for p, q in pairs) or "false"
    terms = [p for p in box if not moves(game, p)]
    term_cases = " | ".join(f"({at(xs, p)})" for p in terms) or "false"
    small_sets = "ck_zv(A) & " if f.zeck else ""
    lines = [
        f"pred ck_small(var2 A) = {small_sets}all1 p: p in A => p < {k};\n",
        f"var2 {X}, {', '.join(ys)}, V;\n",
        f"({small} & {' & '.join(f'ck_small({v})' for v in ys)}) => (move({inter}) <=> ({move_cases}))",
        f"& ({small} => (terminal({X}) <=> ({term_cases})))",
    ]
    if kind == "p_positions":
        ps = [p for p in box if values.value(p) == 0]
        cases = " | ".join(f"({at(xs, p)})" for p in ps) or "false"
        lines.append(f"& ({small} => (S({X}) <=> ({cases})))")
    elif kind == "grundy":
        cases = " | ".join(f"({at(xs, p)} & V = {_set(values.value(p))})" for p in box)
        lines.append(f"& ({small} => (G({X}, V) <=> ({cases})))")
    return "\n".join(lines) + ";\n"


def check_part(part: dict[str, Any], game: Any, read: Any, timeout: float) -> list[str]:
    """Re-check one ``ws1s`` part; returns the lines of what was checked. Raises Rejected / CannotCheck."""
    kind, h, misere = part.get("claim_kind"), part.get("heaps"), bool(part.get("misere", False))
    if kind not in ("p_positions", "grundy", "identity") or not isinstance(h, int) or h < 1:
        raise CannotCheck(f"a WS1S part for claim kind {kind!r} on {h!r} heaps")
    numeration = part.get("numeration", "binary")
    if numeration not in NUMERATIONS:
        raise CannotCheck(f"WS1S proofs in {numeration!r} numeration")
    if kind != "identity":
        check_game(game)
    plain = game if isinstance(game, dict) else {}
    frame = Frame(h, numeration, lex_order(plain, h))
    moore = plain["k"] if plain.get("kind") == "moore" else 0
    header = plain_header(read(part["header"]))
    listed = {ob.get("name", "") for ob in part.get("obligations", [])}
    required = (
        {"identity"}
        if kind == "identity"
        else {"a", "b"}
        if kind == "p_positions"
        else {"g1", "g2"}
    )
    if misere and kind != "identity":
        required |= {"c"} if kind == "p_positions" else {"g0"}
    missing = sorted(
        r for r in required if not any(n == r or n.startswith(r + "[") for n in listed)
    )
    if missing:
        raise Rejected(f"the certificate lists no obligation {', '.join(missing)}")
    done = []
    for ob in part.get("obligations", []):
        if ob.get("mona") != "valid":
            raise Rejected(
                f"obligation {ob.get('name')}: MONA's recorded answer is {ob.get('mona')!r}, not valid"
            )
        if ob.get("name") in ("guard", "rule-guard"):
            answer, out = run_mona(read(ob["file"]), timeout)
            if answer != "valid":
                raise Rejected(
                    f"the prover's obligation {ob['name']} ({ob['file']}): MONA says {answer}"
                )
            done.append(f"{ob['name']}: valid (MONA, as written)")
    own = header + PRIMITIVES + (ZECKENDORF if frame.zeck else "")
    for name, body in obligations(kind, h, misere, frame, moore).items():
        answer, out = run_mona(own + body, timeout)
        if answer == "error":
            raise Rejected(
                f"MONA cannot read obligation {name} with this header: {out.strip()[:160]}"
            )
        if answer != "valid":
            raise Rejected(f"obligation {name}: MONA says {answer}, the certificate says valid")
        done.append(f"{name}: valid (MONA, checker's own obligation)")
    if kind != "identity":
        text = own + instances(kind, h, game, frame)
        answer, out = run_mona(text, timeout)
        if answer != "valid":
            detail = " ".join(line.strip() for line in out.splitlines() if " = " in line)[:200]
            raise Rejected(
                f"small instances (heaps below {len(frame.box(box_width(h, game, frame)))}): "
                "the header's move/terminal/claim "
                f"relation differs from brute force ({answer}: {detail})"
            )
        done.append(
            f"small instances, heaps below {len(frame.box(box_width(h, game, frame)))} "
            f"({numeration}): move, terminal and claim agree with brute force"
        )
    return done
