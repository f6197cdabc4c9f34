"""Re-check the figures of a quotient-order claim (claim kind ``misere_quotient``).

:mod:`.misere` has already proved that the certificate's monoid ``Q`` (with
P-portion ``P`` and heap map ``phi``) predicts the misère outcome of every sum
of heaps. That alone does not make ``Q`` *the* misère quotient: a larger
correct monoid (an element split in two) or one with elements no sum reaches
predicts just as well. The quotient is the set of sums modulo
indistinguishability (``G ~ H`` when ``G + X`` and ``H + X`` have the same
outcome for every sum ``X``), so ``Q`` is the quotient, with ``phi`` its
quotient map, exactly when:

* every element of ``Q`` is the product of some sum of heaps (``phi`` is onto;
  the certificate gives one sum per element, the checker multiplies it out
  with its own heap map); and
* any two elements ``x != y`` are told apart by some ``z`` in ``Q``: exactly one
  of ``x z``, ``y z`` lies in ``P`` (then the sums reaching ``x`` and ``y`` are
  told apart by a sum reaching ``z``; the certificate gives ``z`` per pair, and
  where it gives none that works the checker searches every ``z``).

Then the claim's figures are read off ``Q``: the order is the number of
elements, the P-portion size that of ``P``, and a stated heap-map period
``P'`` from heap ``s`` (``s`` = the stated preperiod, 0 when none) must hold
for every heap ``n >= s``; as ``phi`` repeats with its own period ``p`` from
``n0`` for every heap, heaps ``s <= n < max(n0, s) + p`` decide that.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nimproof_check.games import CannotCheck, Rejected

#: The claim's figures a certificate restates, in the claim's field names.
FIGURES = ("order", "p_portion", "period", "preperiod")


def check_order(
    part: dict[str, Any],
    claim: dict[str, Any],
    mul: list[list[int]],
    ps: set[int],
    element: Callable[[int], int],
    period: tuple[int, int],
) -> list[str]:
    """Check that the monoid is the quotient and has the claim's figures; the lines of what
    was checked. Raises Rejected / CannotCheck."""
    stated = part.get("stated")
    if not isinstance(stated, dict):
        raise Rejected("the part states no figures")
    for key in FIGURES:
        if stated.get(key) != claim.get(key):
            raise Rejected(
                f"the proof's stated {key} {stated.get(key)!r} is not the claim's {claim.get(key)!r}"
            )
    m = len(mul)
    done = [_onto(part.get("reach"), mul, element), _apart(part.get("distinguish"), mul, ps)]
    order = claim.get("order")
    if not isinstance(order, int) or isinstance(order, bool):
        raise Rejected("the claim states no order")
    if order != m:
        raise Rejected(f"the claim states order {order}; the quotient has {m} elements")
    figures = [f"order {m}"]
    size = claim.get("p_portion")
    if size is not None:
        if size != len(ps):
            raise Rejected(f"the claim states a P-portion of {size}; the quotient's has {len(ps)}")
        figures.append(f"P-portion of {size}")
    if claim.get("period") is not None:
        figures.append(_period(claim, element, period))
    elif claim.get("preperiod") is not None:
        raise CannotCheck("a stated preperiod without a period")
    return [*done, f"the claim's figures hold: {', '.join(figures)}"]


def _onto(reach: Any, mul: list[list[int]], element: Callable[[int], int]) -> str:
    """Every element is the product of its given sum of heaps."""
    m = len(mul)
    if not isinstance(reach, list) or len(reach) != m:
        raise Rejected(f"the part must give a sum of heaps for each of the {m} elements")
    longest = 0
    for x, heaps in enumerate(reach):
        if not isinstance(heaps, list) or not all(
            isinstance(h, int) and not isinstance(h, bool) and h >= 1 for h in heaps
        ):
            raise Rejected(f"element {x}: its sum of heaps is not a list of heaps >= 1")
        y = 0
        for h in heaps:
            y = mul[y][element(h)]
        if y != x:
            raise Rejected(
                f"element {x} is reached by no sum given: the sum of heaps {heaps} has element {y}"
            )
        longest = max(longest, len(heaps))
    return (
        f"every one of the {m} elements is the product of a sum of heaps (at most {longest} heaps)"
    )


def _apart(witnesses: Any, mul: list[list[int]], ps: set[int]) -> str:
    """Any two elements are told apart by some element (the given one, else a search)."""
    m = len(mul)
    given = witnesses if isinstance(witnesses, list) else []
    searched = 0
    i = 0
    for x in range(m):
        for y in range(x + 1, m):
            z = given[i] if i < len(given) else None
            i += 1
            if isinstance(z, int) and 0 <= z < m and (mul[x][z] in ps) != (mul[y][z] in ps):
                continue
            searched += 1
            if all((mul[x][w] in ps) == (mul[y][w] in ps) for w in range(m)):
                raise Rejected(
                    f"elements {x} and {y} are indistinguishable (for every z, both or neither "
                    "of x z and y z lie in the P-portion): the monoid is larger than the quotient"
                )
    extra = f" ({searched} found by search)" if searched else ""
    return f"all {m * (m - 1) // 2} pairs of elements are told apart by an element{extra}"


def _period(claim: dict[str, Any], element: Callable[[int], int], own: tuple[int, int]) -> str:
    """The stated period holds from the stated heap (0 when none) for every heap."""
    step, start = claim.get("period"), claim.get("preperiod") or 0
    if not isinstance(step, int) or step < 1 or not isinstance(start, int) or start < 0:
        raise Rejected(f"the stated period {step!r} from heap {start!r} is not whole numbers")
    n0, p = own
    for n in range(start, max(n0, start) + p):
        if element(n + step) != element(n):
            raise Rejected(
                f"the heap map does not have period {step} from heap {start}: heaps {n} and "
                f"{n + step} map to elements {element(n)} and {element(n + step)}"
            )
    return f"heap map period {step} from heap {start}"
