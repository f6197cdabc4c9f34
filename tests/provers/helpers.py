"""The shared prover-test helpers now live in ``tests/conftest.py``; kept for old imports."""

from tests.conftest import assert_refutation_holds, claim, true_value

__all__ = ["assert_refutation_holds", "claim", "true_value"]
