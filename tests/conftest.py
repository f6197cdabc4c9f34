"""Shared test helpers (build claims in code, re-check verdicts without the verifier).

They live in ``tests/provers/helpers.py``; importing them here makes them
available to every test package as ``tests.conftest``.
"""

from tests.provers.helpers import assert_refutation_holds, claim, true_value

__all__ = ["assert_refutation_holds", "claim", "true_value"]
