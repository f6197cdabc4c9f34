"""Read conjecture files, validate them against the schema, expand parameter grids.

Every problem is a :class:`ClaimError` whose one-line message names the file
and the claim. Files are only read (``tomllib``); nothing in them is executed.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from nimproof.claims.kinds import kind_named
from nimproof.claims.model import METHODS, Claim, ClaimKind, Source
from nimproof.errors import ClaimError, UsageError
from nimproof.games.plugins import load_plugin_file
from nimproof.verdict import Requirement

MAX_GRID = 2000
MAX_FILE_BYTES = 2_000_000
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")


def find_files(paths: Iterable[str | Path]) -> list[Path]:
    """The ``.toml`` files under ``paths`` (files are taken as given), sorted."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*.toml") if q.is_file()))
        elif p.is_file():
            out.append(p)
        else:
            raise ClaimError(f"{p}: no such file or directory")
    return sorted(dict.fromkeys(out))


def load_paths(paths: Iterable[str | Path], profile: str = "default") -> list[Claim]:
    """Every claim instance in the files under ``paths``; ids must be unique."""
    claims: list[Claim] = []
    seen: dict[str, Path] = {}
    for path in find_files(paths):
        for claim in load_file(path, profile):
            if claim.id in seen:
                raise ClaimError(
                    f"{path}: claim id {claim.id!r} is already used in {seen[claim.id]}"
                )
            seen[claim.id] = path
            claims.append(claim)
    return claims


def load_file(path: str | Path, profile: str = "default") -> list[Claim]:
    """The claim instances of one file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ClaimError(f"{p}: cannot read: {exc.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ClaimError(f"{p}: file larger than {MAX_FILE_BYTES} bytes")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ClaimError(f"{p}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ClaimError(f"{p}: malformed TOML: {exc}") from None
    return list(parse_document(data, p, profile))


def parse_document(
    data: dict[str, Any], path: Path | None = None, profile: str = "default"
) -> Iterator[Claim]:
    """Claims of an already parsed TOML document."""
    where = str(path) if path else "<claims>"
    unknown = set(data) - {"claim", "plugins"}
    if unknown:
        raise ClaimError(
            f"{where}: unknown top-level key(s) {sorted(unknown)}; claims go in [[claim]] tables"
        )
    _load_plugins(data.get("plugins"), path, where)
    tables = data.get("claim")
    if not isinstance(tables, list) or not tables:
        raise ClaimError(f"{where}: no [[claim]] tables")
    for i, table in enumerate(tables):
        if not isinstance(table, dict):
            raise ClaimError(f"{where}: claim #{i + 1} is not a table")
        yield from _expand(table, f"{where}: claim {table.get('id', f'#{i + 1}')!r}", path, profile)


def _load_plugins(files: Any, path: Path | None, where: str) -> None:
    """Load the plugin files a document names (``plugins = ["game.py"]``), relative to it."""
    if files is None:
        return
    if not isinstance(files, list) or not all(isinstance(f, str) and f.strip() for f in files):
        raise ClaimError(f'{where}: plugins must be a list of file names, e.g. ["my_game.py"]')
    folder = path.parent if path is not None else Path.cwd()
    for name in files:
        try:
            load_plugin_file(folder / name)
        except UsageError as exc:
            raise ClaimError(f"{where}: {exc}") from None


def _expand(table: dict[str, Any], where: str, path: Path | None, profile: str) -> Iterator[Claim]:
    cid, kind = _check_keys(table, where)
    expect = _str(table, "expect", where) or "proved"
    if expect not in ("proved", "refuted"):
        raise ClaimError(f"{where}: expect must be 'proved' or 'refuted', got {expect!r}")
    statement = _str(table, "statement", where, required=True)
    require = None
    if "require" in table:
        try:
            require = Requirement.parse(table["require"])
        except ValueError as exc:
            raise ClaimError(f"{where}: {exc}") from None
    checks = _checks(table, where, profile)
    source = _source(table.get("source", {}), where)
    tags = table.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ClaimError(f"{where}: tags must be a list of strings")

    axes, heaps_axis = _grid_axes(table, where)
    names = list(axes)
    heap_values: list[int | None] = list(heaps_axis) if heaps_axis else [None]
    for point, heaps in itertools.product(
        itertools.product(*(axes[n] for n in names)), heap_values
    ):
        values: dict[str, int] = dict(zip(names, point, strict=True))
        label = [f"{n}={v}" for n, v in values.items()]
        if heaps_axis is not None and len(heaps_axis) > 1:
            label.append(f"heaps={heaps}")
        iid = f"{cid}[{','.join(label)}]" if label else cid
        sub = _substituter(values, where)
        yield Claim(
            id=iid,
            kind=kind,
            statement=sub(statement),
            game=sub(_str(table, "game", where)) or None,
            formula=_str(table, "formula", where) or _str(table, "predicate", where) or None,
            heaps=heaps,
            variables=tuple(_str_list(table, "variables", where)),
            witness=_str(table, "witness", where) or None,
            components=tuple(sub(c) for c in _str_list(table, "components", where)),
            period=_int(table, "period", where, low=1),
            preperiod=_int(table, "preperiod", where, low=0),
            saltus=_int(table, "saltus", where) or 0,
            positions=tuple(_position_list(table.get("positions", []), where)),
            values=tuple(table.get("values", [])),
            winning_moves=tuple(_winning_moves(table.get("winning_moves", []), where)),
            least=_bool(table, "least", where),
            offset=_int(table, "offset", where, low=0) or 0,
            order=_int(table, "order", where, low=1),
            p_portion=_int(table, "p_portion", where, low=1),
            params=values,
            checks=checks,
            expect=expect,
            require=require,
            source=source,
            tags=tuple(tags),
            group=cid,
            path=path,
        )


def _check_keys(table: dict[str, Any], where: str) -> tuple[str, ClaimKind]:
    """The claim's id and kind, after checking its keys are the ones its kind allows."""
    cid = _str(table, "id", where, required=True)
    if not _ID.match(cid):
        raise ClaimError(f"{where}: id must be letters, digits, '-', '_' or '.', got {cid!r}")
    kind = _str(table, "kind", where, required=True)
    kind_named(kind, where).check_keys(table, where)
    return cid, kind  # type: ignore[return-value]  # checked against the registry just above


def _grid_axes(table: dict[str, Any], where: str) -> tuple[dict[str, list[int]], list[int] | None]:
    """The parameter axes and the heap-count axis of a claim table (the grid it expands to)."""
    axes: dict[str, list[int]] = {}
    params = table.get("params", {})
    if not isinstance(params, dict):
        raise ClaimError(f'{where}: params must be a table, e.g. params = {{ k = "1..10" }}')
    for name, spec in params.items():
        if not name.isidentifier() or name in ("n", "m", "h", "v", "heaps"):
            raise ClaimError(f"{where}: {name!r} cannot be a parameter name")
        axes[name] = _axis(spec, f"{where}: parameter {name!r}")
    heaps_axis: list[int] | None = None
    if "heaps" in table:
        heaps_axis = _axis(table["heaps"], f"{where}: heaps", low=1, high=64)
    total = 1
    for axis in [*axes.values(), heaps_axis or [0]]:
        total *= len(axis)
    if total > MAX_GRID:
        raise ClaimError(f"{where}: the parameter grid has {total} points (at most {MAX_GRID})")
    return axes, heaps_axis


def _substituter(values: dict[str, int], where: str) -> Any:
    def sub(text: str) -> str:
        def repl(m: re.Match[str]) -> str:
            if m.group(1) not in values:
                raise ClaimError(f"{where}: placeholder {{{m.group(1)}}} names no parameter")
            return str(values[m.group(1)])

        return _PLACEHOLDER.sub(repl, text) if text else text

    return sub


def _axis(spec: Any, where: str, low: int = -(10**9), high: int = 10**9) -> list[int]:
    if isinstance(spec, bool):
        raise ClaimError(f"{where}: must be a whole number, a list or 'a..b'")
    if isinstance(spec, int):
        values = [spec]
    elif (
        isinstance(spec, list)
        and spec
        and all(isinstance(v, int) and not isinstance(v, bool) for v in spec)
    ):
        values = list(spec)
    elif isinstance(spec, str) and re.fullmatch(r"\s*-?\d+\s*\.\.\s*-?\d+\s*", spec):
        a, b = (int(x) for x in spec.split(".."))
        if b < a or b - a > MAX_GRID:
            raise ClaimError(f"{where}: range {spec!r} is empty or too long")
        values = list(range(a, b + 1))
    else:
        raise ClaimError(f"{where}: must be a whole number, a non-empty list of them, or 'a..b'")
    for v in values:
        if not low <= v <= high:
            raise ClaimError(f"{where}: value {v} out of range [{low}, {high}]")
    return values


def _checks(table: dict[str, Any], where: str, profile: str) -> dict[str, dict[str, Any]]:
    base = table.get("checks", {})
    if not isinstance(base, dict):
        raise ClaimError(f"{where}: checks must be a table")
    merged: dict[str, dict[str, Any]] = {}
    layers = [base]
    if profile != "default" and f"checks_{profile}" in table:
        layers.append(table[f"checks_{profile}"])
    for layer in layers:
        if not isinstance(layer, dict):
            raise ClaimError(f"{where}: checks must be a table")
        for method, raw in layer.items():
            if method not in METHODS:
                raise ClaimError(
                    f"{where}: unknown check {method!r} (methods: {', '.join(METHODS)})"
                )
            if raw is False:
                merged.pop(method, None)
                continue
            options = {} if raw is True else raw
            if not isinstance(options, dict):
                raise ClaimError(f"{where}: options of check {method!r} must be a table")
            merged[method] = {**merged.get(method, {}), **options}
    return merged


def _source(raw: Any, where: str) -> Source:
    if not isinstance(raw, dict):
        raise ClaimError(f"{where}: source must be a table")
    extra = set(raw) - {"seed", "section", "wording", "note"}
    if extra:
        raise ClaimError(f"{where}: unknown source key(s) {sorted(extra)}")
    for k, v in raw.items():
        if not isinstance(v, str):
            raise ClaimError(f"{where}: source.{k} must be a string")
    return Source(**raw)


def _str(table: dict[str, Any], key: str, where: str, required: bool = False) -> str:
    if key not in table:
        if required:
            raise ClaimError(f"{where}: missing {key!r}")
        return ""
    v = table[key]
    if not isinstance(v, str) or (required and not v.strip()):
        raise ClaimError(f"{where}: {key!r} must be a non-empty string")
    return v


def _str_list(table: dict[str, Any], key: str, where: str) -> list[str]:
    v = table.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ClaimError(f"{where}: {key!r} must be a list of strings")
    return v


def _int(table: dict[str, Any], key: str, where: str, low: int = -(10**12)) -> int | None:
    if key not in table:
        return None
    v = table[key]
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise ClaimError(f"{where}: {key!r} must be a whole number >= {low}")
    return v


def _bool(table: dict[str, Any], key: str, where: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise ClaimError(f"{where}: {key} must be true or false, got {value!r}")
    return value


def _winning_moves(raw: Any, where: str) -> list[Any]:
    """One list of moves per position; a move is a heap size or a (nested) list of them."""

    def move_ok(m: Any, depth: int = 0) -> bool:
        if isinstance(m, int) and not isinstance(m, bool):
            return m >= 0
        return isinstance(m, list) and depth < 4 and all(move_ok(x, depth + 1) for x in m)

    if not isinstance(raw, list):
        raise ClaimError(
            f"{where}: winning_moves must be a list with one list of moves per position"
        )
    for i, moves in enumerate(raw):
        if not isinstance(moves, list):
            raise ClaimError(f"{where}: winning_moves[{i}] must be a list of moves, got {moves!r}")
        for m in moves:
            if not move_ok(m):
                raise ClaimError(
                    f"{where}: winning_moves[{i}] has {m!r}; a move is written as the heaps it "
                    "leaves: a whole number >= 0 or a list of them"
                )
    return raw


def _position_list(raw: Any, where: str) -> list[Any]:
    if not isinstance(raw, list):
        raise ClaimError(f"{where}: positions must be a list")
    out: list[Any] = []
    for p in raw:
        if isinstance(p, int) and not isinstance(p, bool) and p >= 0:
            out.append(p)
        elif isinstance(p, list) and all(
            isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in p
        ):
            out.append(tuple(p))
        else:
            raise ClaimError(f"{where}: a position is a heap size or a list of them, got {p!r}")
    return out
