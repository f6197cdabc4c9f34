"""``python -m nimproof_check PATH ...``: check certificate files or folders of them.

Prints one line per certificate; exit code 0 when every one is accepted, 1
when one is rejected or cannot be checked, 2 when a path does not exist.
"""

from __future__ import annotations

import sys
from pathlib import Path

from nimproof_check.check import check_path


def main(argv: list[str] | None = None) -> int:
    """Check every ``*.json`` certificate under the given paths."""
    paths = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: python -m nimproof_check PATH ...", file=sys.stderr)
        return 2
    files: list[Path] = []
    for p in paths:
        if not p.exists():
            print(f"error: {p} does not exist", file=sys.stderr)
            return 2
        files += sorted(p.glob("*.json")) if p.is_dir() else [p]
    bad = 0
    for f in files:
        report = check_path(f)
        bad += not report.accepted
        print(f"{report.status}: {f}" + (f": {report.reason}" if report.reason else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
