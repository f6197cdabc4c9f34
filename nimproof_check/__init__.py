"""An independent checker of nimproof's certificates: it imports nothing from nimproof.

A certificate (``docs/certificates.md``) is a JSON file with ``"format":
"nimproof-certificate"`` and ``"version": 1``, the claim, the game in a plain
description (:mod:`.games`), and one proof part; text files it names (MONA and
SMT-LIB 2 obligations) lie in the folder named by ``"files_dir"`` beside it,
each with its sha256 in ``"files"``. :func:`check_path` re-verifies a
certificate from scratch and answers

* ``accepted``: every step was re-checked here (MONA re-run on obligations the
  checker writes itself, a second SMT solver, values recomputed by plain mex);
* ``rejected``: something does not check (the reason says what);
* ``cannot check``: the certificate needs something this checker does not
  interpret (a game family, a theorem, a part kind); never accepted.

Run it as ``python -m nimproof_check PATH`` or ``nimproof certify PATH``.
"""

from __future__ import annotations

from nimproof_check.check import FORMAT, VERSION, Report, check_certificate, check_path

__all__ = ["FORMAT", "VERSION", "Report", "check_certificate", "check_path"]
