"""Build certificates of real proofs for the certificate tests."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from nimproof.certificates.build import build, certify, write
from nimproof.claims import Claim
from nimproof.provers import auto_witness, prepare, verify_claim
from nimproof.verdict import Verdict


def proved(claim: Claim) -> tuple[Verdict, Any]:
    """The verdict on ``claim`` (which must be proved for all positions) and its context."""
    verdict = verify_claim(claim, timeout=120)
    assert verdict.status == "proved" and verdict.scope.kind == "all", verdict
    return verdict, auto_witness(prepare(claim))


def certificate(claim: Claim, folder: Path) -> Path:
    """Write the certificate of ``claim``'s proof under ``folder``; its path."""
    verdict, ctx = proved(claim)
    built = build(claim, ctx, verdict)
    assert not isinstance(built, str), built
    return write(folder, *built)


def certified(claim: Claim, folder: Path) -> Verdict:
    """The verdict on ``claim`` held to its certificate (written under ``folder``)."""
    verdict, ctx = proved(claim)
    return certify(claim, ctx, verdict, folder)


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def save(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data))


def edit_file(path: Path, name: str, old: str, new: str, rehash: bool = True) -> None:
    """Replace ``old`` by ``new`` in the certificate's file ``name`` (and, by default, restate
    its sha256 so that only the checker's re-checking can notice)."""
    data = load(path)
    file = path.parent / data["files_dir"] / name
    text = file.read_text()
    assert old in text, (old, text[:400])
    file.write_text(text.replace(old, new, 1))
    if rehash:
        data["files"][name] = hashlib.sha256(file.read_bytes()).hexdigest()
        save(path, data)
