"""Mathematical theory the verifier relies on, free of engines, provers and the command line.

* :mod:`.periodicity` - the periodicity theorems (their hypotheses and the
  window each needs), the search for ``g(n + p) = g(n) + s`` in a table and
  the check of a table against a theorem.
"""
