"""Read a certificate, check its files' hashes, and re-check its proof part by kind."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nimproof_check import listed, loopy, misere, parts, periodic, smt, ws1s
from nimproof_check.games import CannotCheck, Rejected, check_game

FORMAT = "nimproof-certificate"
VERSION = 1
#: Seconds per MONA run or SMT query.
TIMEOUT = 120.0


@dataclass
class Report:
    """The checker's answer on one certificate: ``accepted``, ``rejected`` or ``cannot check``."""

    path: str
    claim_id: str
    status: str
    reason: str = ""
    checked: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        """True only when every step of the certificate was re-checked."""
        return self.status == "accepted"

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "claim": self.claim_id,
            "status": self.status,
            "reason": self.reason,
            "checked": self.checked,
        }


def check_path(path: str | Path, timeout: float = TIMEOUT) -> Report:
    """Check the certificate file at ``path``."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return Report(str(p), "", "rejected", f"not a readable JSON file: {exc}")
    return check_certificate(data, p.parent, str(p), timeout)


def check_certificate(data: Any, folder: Path, name: str = "", timeout: float = TIMEOUT) -> Report:
    """Check a loaded certificate whose files lie under ``folder``."""
    claim_id = str(data.get("claim", {}).get("id", "")) if isinstance(data, dict) else ""
    report = Report(name, claim_id, "accepted")
    try:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise Rejected(f"not a certificate (format must be {FORMAT!r})")
        if data.get("version") != VERSION:
            raise CannotCheck(
                f"certificate version {data.get('version')!r}; this checker reads {VERSION}"
            )
        read = _reader(data, folder)
        _matches_claim(data.get("proof"), data.get("claim"), data.get("game"))
        report.checked = check_part(
            data.get("proof"), data.get("game"), data.get("claim", {}), read, timeout
        )
    except Rejected as exc:
        report.status, report.reason = "rejected", str(exc)
    except CannotCheck as exc:
        report.status, report.reason = "cannot check", str(exc)
    return report


def _reader(data: dict[str, Any], folder: Path) -> Any:
    """``read(name)``: a named file's text, after checking it is listed and its sha256 matches."""
    files = data.get("files", {})
    base = folder / str(data.get("files_dir", ""))

    def read(file: str) -> str:
        stated = files.get(file) if isinstance(files, dict) else None
        if not isinstance(stated, str) or "/" in file or file.startswith("."):
            raise Rejected(f"file {file!r} is not listed with a sha256 in the certificate")
        try:
            raw = (base / file).read_bytes()
        except OSError:
            raise Rejected(f"file {file!r} is missing") from None
        if hashlib.sha256(raw).hexdigest() != stated:
            raise Rejected(f"file {file!r} does not match its sha256 (changed after the proof)")
        return raw.decode("utf-8")

    return read


def check_part(part: Any, game: Any, claim: dict[str, Any], read: Any, timeout: float) -> list[str]:
    """Re-check one proof part (recursively for compositions); the lines of what was checked."""
    if not isinstance(part, dict):
        raise Rejected("the certificate has no proof part")
    kind = part.get("kind")
    game = part.get("game", game)
    if kind == "ws1s":
        return ws1s.check_part(part, game, read, timeout)
    if kind == "misere-quotient":
        return misere.check_part(part, game, claim, read, timeout)
    if kind == "loopy":
        return loopy.check_part(part, game, claim, read, timeout)
    if kind == "ws1s-parts":
        return parts.check_part(part, game, read, timeout)
    if kind == "smt":
        return smt.check_part(part, read, timeout)
    if kind == "periodicity":
        return periodic.check_part(part, check_game(game))
    if kind == "listed":
        return listed.check_part(part, check_game(game), claim)
    if kind == "composition":
        return listed.check_composition(part, game, claim, read, timeout, check_part)
    raise CannotCheck(f"a proof part of kind {kind!r}")


def _matches_claim(proof: Any, claim: Any, game: Any) -> None:
    """Reject a proof part that is about another claim than the one the certificate states."""
    if not isinstance(proof, dict) or not isinstance(claim, dict):
        raise Rejected("the certificate needs a claim and a proof part")
    kind = proof.get("claim_kind")
    if proof.get("kind") in (
        "ws1s",
        "ws1s-parts",
        "smt",
        "listed",
        "misere-quotient",
        "loopy",
    ) and kind != claim.get("kind"):
        raise Rejected(
            f"the proof is about a {kind} claim; the claim is a {claim.get('kind')} claim"
        )
    if proof.get("kind") in ("ws1s", "ws1s-parts", "loopy"):
        heaps = claim.get("heaps")
        if isinstance(heaps, int) and heaps != proof.get("heaps"):
            raise Rejected(
                f"the proof is about {proof.get('heaps')} heaps; the claim about {heaps}"
            )
        if isinstance(game, dict) and bool(game.get("misere")) != bool(proof.get("misere")):
            raise Rejected("the proof and the game differ in misère play")
    if proof.get("kind") == "periodicity":
        for key in ("period", "preperiod", "saltus"):
            if claim.get(key) is not None and claim.get(key) != proof.get(key):
                raise Rejected(
                    f"the proof's {key} {proof.get(key)} is not the claim's {claim.get(key)}"
                )
    if proof.get("kind") == "listed":
        for key in ("positions", "values", "offset", "winning_moves"):
            if key in proof and key in claim and _plain(proof[key]) != _plain(claim[key]):
                raise Rejected(f"the proof's {key} are not the claim's")


def _plain(x: Any) -> Any:
    """Lists and tuples alike (JSON has only lists); an empty list of moves as None."""
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x] or None
    return x
