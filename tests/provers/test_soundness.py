"""Soundness: every registered proof method on every false claim of the shared suite.

The conformance test (Hypothesis's pattern for back ends): each case of
:mod:`tests.provers.false_claims` is run through each method of
:data:`nimproof.methods.REGISTRY` on its own. A method may answer
``unknown`` (it is not complete everywhere) but never ``proved``; the methods
a case names as complete must refute it, and every refutation is re-checked
here without the verifier. A new method is tested by being registered, a new
false claim by being added to the suite.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from nimproof.claims import Claim
from nimproof.methods import ORDER
from nimproof.provers import verify_claim
from nimproof.verdict import Verdict
from tests.conftest import assert_refutation_holds, claim
from tests.provers.false_claims import (
    FAR_FALSE,
    FAR_ONE_HEAP,
    IDENTITIES_FALSE,
    KAYLES_WRONG_PERIODS,
    MULTI_FALSE,
    ONE_HEAP_FALSE,
    FalseCase,
    cases,
)

#: Small bounds for the methods that take them; a method not listed runs with its defaults.
OPTIONS: dict[str, dict[str, Any]] = {
    "exhaustive": {"max_n": 300, "max_heap": 7},
    "z3_int": {"timeout": 30},
    "z3_bitvec": {"width": 8, "timeout": 60},
    "hypothesis": {"examples": 60},
    "hunt": {"timeout": 3},
}
IDENTITY_OPTIONS: dict[str, dict[str, Any]] = {
    "exhaustive": {"max_value": 15},
    "z3_bitvec": {"widths": [8, 16]},
    "hypothesis": {"examples": 300},
}

CASES = cases()


def _options(method: str, case: FalseCase) -> dict[str, Any]:
    if case.claim.kind == "identity":
        return dict(IDENTITY_OPTIONS.get(method, {}))
    opts = dict(OPTIONS.get(method, {}))
    if method == "exhaustive":
        opts.pop("max_n" if case.multi else "max_heap")
    return opts


@pytest.mark.parametrize("method", ORDER)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_no_registered_method_proves_a_false_claim(case: FalseCase, method: str) -> None:
    c = replace(case.claim, checks={method: _options(method, case)})
    verdict = verify_claim(c, timeout=120, only_named=True)
    # Each case is wrong at small positions, inside every method's region: neither a proof
    # nor a clean bounded check is acceptable.
    assert verdict.status not in ("proved", "checked"), (method, verdict)
    if method in case.refuted_by:
        assert_refutation_holds(c, verdict)


FAR_CASES = [
    claim("p_positions", g, f, {}, heaps=h, id=f"far-{g}-{h}-{i}")
    for i, (g, f, h, _) in enumerate(FAR_FALSE)
] + [claim("grundy", g, f, {}, id=f"far-{g}-{i}") for i, (g, f, _) in enumerate(FAR_ONE_HEAP)]
FAR_BITS = [b for *_, b in FAR_FALSE] + [b for *_, b in FAR_ONE_HEAP]


@pytest.mark.parametrize("method", ORDER)
@pytest.mark.parametrize(("c", "bits"), list(zip(FAR_CASES, FAR_BITS, strict=True)))
def test_mutant_failing_only_beyond_2_32_or_2_64_is_never_proved_past_its_scope(
    c: Any, bits: int, method: str
) -> None:
    """A bounded proof below the counterexample is honest; a proof that covers it is not."""
    opts = dict(OPTIONS.get(method, {}))
    if method == "exhaustive":
        opts.pop("max_n" if c.kind == "p_positions" else "max_heap")
    verdict = verify_claim(replace(c, checks={method: opts}), timeout=120, only_named=True)
    assert verdict.status != "proved", (method, verdict)
    if verdict.status == "checked":
        scope = verdict.scope
        assert scope.kind in ("width", "bound"), (method, verdict)
        limit = (1 << scope.width) - 1 if scope.kind == "width" else scope.bound
        assert limit is not None and limit < 2 ** (bits - 1), (method, verdict)
    if method == "automata":
        assert verdict.status == "refuted", verdict
        cx = verdict.counterexample
        assert cx is not None and cx.rechecked
        far = cx.position if isinstance(cx.position, int) else max(cx.position)
        assert far >= 2 ** (bits - 1), cx


def _default_run(c: Claim) -> Verdict:
    """``c`` decided as a user's claim is: no checks named, every default method."""
    verdict = verify_claim(c, timeout=30)
    assert verdict.status != "proved", verdict
    return verdict


#: Every sixth case of the suite and every far mutant (``make test-all``: every case).
DEFAULT_SAMPLE = CASES[::6]


@pytest.mark.parametrize("case", DEFAULT_SAMPLE, ids=[c.id for c in DEFAULT_SAMPLE])
def test_a_false_claim_run_with_default_options_is_never_proved(case: FalseCase) -> None:
    verdict = _default_run(case.claim)
    if verdict.status == "refuted":
        assert_refutation_holds(case.claim, verdict)


@pytest.mark.parametrize(
    ("c", "bits"), list(zip(FAR_CASES, FAR_BITS, strict=True)), ids=[c.id for c in FAR_CASES]
)
def test_a_far_mutant_run_with_default_options_is_never_proved(c: Claim, bits: int) -> None:
    """Refuted far away (by a re-checked counterexample), or checked on a region below it."""
    verdict = _default_run(c)
    if verdict.status == "refuted":
        cx = verdict.counterexample
        assert cx is not None and cx.rechecked
        far = cx.position if isinstance(cx.position, int) else max(cx.position)
        assert far >= 2 ** (bits - 1), cx
    elif verdict.status == "checked":
        scope = verdict.scope
        limit = (1 << (scope.width or 0)) - 1 if scope.kind == "width" else scope.bound
        assert limit is not None and limit < 2 ** (bits - 1), verdict


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_false_claim_run_with_default_options_is_never_proved(case: FalseCase) -> None:
    verdict = _default_run(case.claim)
    if verdict.status == "refuted":
        assert_refutation_holds(case.claim, verdict)


def test_every_case_names_only_registered_methods() -> None:
    for case in CASES:
        assert set(case.refuted_by) <= set(ORDER), case.id


def test_false_claim_count_is_at_least_two_hundred() -> None:
    per_one = sum(len(m) + 1 for _, _, m in ONE_HEAP_FALSE)
    per_multi = sum(len(m) + 1 for *_, m in MULTI_FALSE)
    total = per_one + per_multi + 3 * len(IDENTITIES_FALSE) + len(KAYLES_WRONG_PERIODS)
    total += len(FAR_FALSE) + len(FAR_ONE_HEAP)
    assert total >= 200, total
    assert len(CASES) * len(ORDER) >= 200
