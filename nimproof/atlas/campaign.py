"""A campaign on the games a public list calls unsolved: deeper tables, figures per doubling.

The list (``data/unsolved_games.csv``: tczajka/octal-games' UnsolvedGames,
82 octal codes and Grundy's game, with the figures it publishes for four of
them) is read by :func:`unsolved_games`. :func:`campaign_game` grows the
sparse-space table of one game doubling by doubling, from ``2^start`` heaps to
``2^depth``, and after each doubling records one row in the list's format
(heaps, where the largest value first occurs, the largest value, the rare
mask, the number of rare heaps counting heap 0, the last rare heap) with the
period search and its proof at that stage (:func:`nimproof.engines.sparse.period_check`).
A period proved for a listed game is reported with the window its theorem
needs and the command that reproduces it (``nimproof period``).

:func:`run_campaign` runs the games on Dask (the atlas's cluster handling:
a local cluster, an existing scheduler, or this process) and keeps every row
in ``OUT/campaign.parquet`` as games finish; started again, it skips each game
whose rows already reach the depth asked for or prove a period. A game's table
is kept between runs in a memory-mapped file in ``OUT/tables/GAME/`` (or
another checkpoint folder; :class:`nimproof.engines.mapped.MappedTable`, one
byte a heap while the values fit, two past 255), checkpointed after every
stretch (a quarter of a doubling, :func:`stretch_of`), with the rows of its
finished doublings and its time so far beside it (``rows.json``). A game
stopped anywhere (its time budget spent, a kill, a lost worker) goes on, in a
later run, from its last finished stretch, with a longer budget or a larger
depth alike, without computing a finished stretch or doubling again; each
stretch computed is logged (``nimproof.campaign``, info). The checkpoint is
removed once the game's period is proved (every game's, with ``drop_tables``).
``seconds`` is each game's budget in one run: the game stops at the first
stretch's end after it (the rows say how deep it got), and the next run gives
it that budget again.
"""

from __future__ import annotations

import csv
import json
import logging
import math
import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from nimproof.atlas.campaign_cost import (
    COST_COLUMNS,
    CostSummary,
    cost_summary,
    method_of,
    next_method,
    project,
)
from nimproof.atlas.sweep import run_tasks
from nimproof.errors import UsageError
from nimproof.games import HeapGame, parse_spec

Progress = Callable[[int, int], None]

#: Each stretch a game computes, and each resumption, is logged here (info level).
LOG = logging.getLogger("nimproof.campaign")
#: A game's checkpoint: the value file (its state beside it) and the rows so far.
VALUES = "values.bin"
ROWS = "rows.json"
#: A checkpoint being deleted is first renamed with this ending (never read again).
DROPPED = ".dropped"
_DELETE = "delete {} to start that game again"

#: The list of unsolved games (see the module docstring).
UNSOLVED_CSV = Path(__file__).with_name("data") / "unsolved_games.csv"
#: Columns of the published list and the period search, in order (every stored row has them).
FIGURES = (
    "code",
    "log2_n",
    "n",
    "largest_at",
    "largest",
    "rare_mask",
    "rare_by_position",
    "num_rare",
    "last_rare",
    "value_counts",
    "period",
    "preperiod",
    "proved",
    "theorem",
    "window_end",
    "command",
    "seconds",
)
#: Columns of ``campaign.parquet``, in order: the figures, then the cost of each doubling
#: and the projection to the target depth (:mod:`nimproof.atlas.campaign_cost`; rows
#: written before these columns existed are read with them empty).
COLUMNS = FIGURES + COST_COLUMNS


@dataclass(frozen=True, slots=True)
class UnsolvedGame:
    """One game of the list: its spec and the depth (log2 of heaps) the list publishes."""

    spec: str
    published_log2_n: int | None
    published: dict[str, str]


def unsolved_games(path: Path = UNSOLVED_CSV) -> list[UnsolvedGame]:
    """The games of the list, in its order (octal codes as ``octal:`` specs)."""
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    out = []
    for row in rows:
        code = row.pop("code")
        spec = code if code == "grundys-game" else f"octal:{code}"
        depth = row.pop("published_log2_n")
        out.append(
            UnsolvedGame(spec, int(depth) if depth else None, {k: v for k, v in row.items() if v})
        )
    return out


def campaign_game(
    spec: str,
    depth: int,
    start: int = 16,
    seconds: float | None = None,
    folder: str | None = None,
    stretch: int | None = None,
    period: bool = True,
) -> list[dict[str, Any]]:
    """Rows of one game at ``2^start``, ``2^(start+1)``, ... ``2^depth`` heaps (see the module).

    With ``folder`` the table lives in ``folder/<game>/`` (a memory-mapped file
    checkpointed every ``stretch`` heaps, by default :func:`stretch_of` the doubling,
    and the rows so far): a call after a kill, a timeout or with a larger ``depth``
    goes on from the last checkpoint, and the rows of earlier calls are kept. Without
    it the table is held in memory. ``seconds`` is this call's budget: the game stops at
    the end of the first stretch (in memory: doubling) after it, once it has a row and
    has computed something in this call. ``period=False`` leaves out the period search
    (its columns stay empty), and with it the 2 bytes a heap it needs.
    """
    # lazy: start-up time (numba)
    from nimproof.engines.mapped import MappedTable
    from nimproof.engines.sparse import SparseTable, check_memory, split_rule, table_bytes

    game = parse_spec(spec)
    rule = split_rule(game)
    if rule is None or not isinstance(game, HeapGame):
        raise UsageError(f"{spec}: the campaign runs games of the sparse-space engine")
    capacity = (1 << depth) + 1
    rows: list[dict[str, Any]] = []
    spent = 0.0  # the game's seconds in earlier calls
    where = None if folder is None else game_folder(folder, spec)
    if where is None:
        check_memory(spec, table_bytes(1 << depth), 1 << depth)
        table: SparseTable = SparseTable(rule, capacity)
    else:
        # The values are in the file; the period check holds 4 bytes per heap of half the table.
        check_memory(spec, (2 * capacity if period else 0) + (64 << 20), 1 << depth)
        rows, spent = kept_rows(where)
        table = MappedTable(rule, capacity, where / VALUES, grow=True)
        if table.n:
            LOG.info("%s: resumed at heap %d", spec, table.n)
    t_run = time.monotonic()
    t_game = t_run - spent  # the rows' seconds count the game's time over every call
    done = [False]  # whether this call has computed a stretch or a doubling

    def out_of_time() -> bool:
        return seconds is not None and bool(rows) and done[0] and elapsed(t_run) > seconds

    def on_stretch(t: MappedTable, a: int, b: int) -> None:
        done[0] = True
        LOG.info("%s: heaps %d to %d computed", spec, a, b - 1)
        if where is not None:
            save_rows(where, rows, elapsed(t_game))

    for k in range(min(start, depth), depth + 1):
        if any(r["log2_n"] == k for r in rows):
            continue  # a doubling finished in an earlier call
        if any(r["proved"] for r in rows) or out_of_time():
            break
        count = (1 << k) + 1
        before = dict(table.counts)  # heaps by method so far: the doubling's method
        if isinstance(table, MappedTable):
            table.run(count, stretch or stretch_of(k), on_stretch, until=out_of_time)
            if table.n < count:
                break  # out of time within the doubling: the checkpoint keeps what is done
        else:
            table.extend(count)
            done[0] = True
        if table.n > count:  # the figures would be those of a longer table
            raise UsageError(
                f"{where}: a table past 2^{k} heaps without its row; {_DELETE.format(where)}"
            )
        row = _row(game, spec, k, table, t_game, period)
        rows.append(row | _cost(row, rows, before, table))
        if where is not None:
            save_rows(where, rows, elapsed(t_game))
    return rows


def stretch_of(k: int) -> int:
    """Heaps per checkpoint while a game's table doubles to ``2^k``: a quarter of the
    doubling (so a game stops within about a quarter of a doubling's time after its
    budget), at least 2^12 heaps and at most :data:`nimproof.engines.mapped.STRETCH`."""
    from nimproof.engines.mapped import MIN_STRETCH, STRETCH  # lazy: start-up time (numba)

    return min(STRETCH, max(MIN_STRETCH, 1 << max(0, k - 3)))


def _row(
    game: HeapGame, spec: str, k: int, table: Any, t0: float, period: bool = True
) -> dict[str, Any]:
    """The campaign row of ``table`` at ``2^k`` heaps (figures and the period check)."""
    from nimproof.engines.sparse import period_check  # lazy: start-up time (numba)

    count = (1 << k) + 1
    stats = table.stats()
    found = period_check(game, table.values, count) if period else None
    heap0_rare = stats["rare_parity"] == 0  # g(0) = 0: rare exactly when cbit is 0
    row = {
        "code": spec,
        "log2_n": k,
        "n": count - 1,
        "largest_at": stats["largest_at"],
        "largest": stats["largest_value"],
        "rare_mask": f"{stats['rare_mask']:x}",
        "rare_by_position": stats["rare_by_position"],
        "num_rare": stats["rare_heaps"] + int(heap0_rare),
        "last_rare": stats["last_rare"],
        "value_counts": value_counts(table.hist),
        "period": None if found is None else found.period,
        "preperiod": None if found is None else found.preperiod,
        "proved": bool(found is not None and found.proved),
        "theorem": "" if found is None else found.theorem,
        "window_end": None if found is None else found.window_end,
        "command": "",
        "seconds": round(elapsed(t0), 3),
    }
    if row["proved"]:
        row["command"] = f"nimproof period {spec} --max-n {count - 1}"
    return row


def _cost(
    row: dict[str, Any], rows: list[dict[str, Any]], before: dict[str, int], table: Any
) -> dict[str, Any]:
    """The measured cost columns of ``row`` (:mod:`.campaign_cost`): the method that computed
    most of the doubling's heaps in this call (the table's own counts; the method in use when
    this call computed none of them) and the seconds since the game's row before (since
    heap 0 for its first row). The projection columns are filled by :func:`run_campaign`."""
    sparse = table.counts["sparse"] - before.get("sparse", 0)
    dense = table.counts["dense"] - before.get("dense", 0)
    method = table.mode if sparse == dense == 0 else "dense" if dense > sparse else "sparse"
    last = rows[-1] if rows and rows[-1]["log2_n"] == row["log2_n"] - 1 else None
    spent = row["seconds"] - (last["seconds"] if last is not None else 0.0)
    seconds = round(max(0.0, spent), 3)
    return {
        "method": method,
        "doubling_seconds": seconds,
        "projected_to": None,
        "projected_seconds": None,
    }


def value_counts(hist: Any) -> str:
    """``"value:count"`` for every value of heaps ``1..n`` (heap 0, value 0, is left out).

    ``hist`` is the engine's histogram by heap parity (``hist[0]`` even heaps,
    ``hist[1]`` odd ones); the text is the form of published value counts
    (Rogalski's solver counts heaps 1..N), smallest value first.
    """
    total = hist[0] + hist[1]
    total[0] -= 1  # heap 0
    return " ".join(f"{v}:{int(c)}" for v, c in enumerate(total) if c)


def parse_counts(text: str) -> dict[int, int]:
    """The counts of a ``"value:count ..."`` text (:func:`value_counts`) as a dict."""
    out = {}
    for item in text.split():
        value, count = item.split(":")
        out[int(value)] = int(count)
    return out


def elapsed(t0: float) -> float:
    """Seconds since ``t0`` (``time.monotonic``)."""
    return time.monotonic() - t0


def game_folder(folder: str | os.PathLike[str], spec: str) -> Path:
    """Where a game's table and rows are kept between runs (a name made of the spec)."""
    return Path(folder) / re.sub(r"[^A-Za-z0-9.-]", "_", spec)


def kept_rows(where: Path) -> tuple[list[dict[str, Any]], float]:
    """The rows an earlier run of the game left in ``where`` and the game's seconds so far
    (none and 0.0 without a rows file); a file that cannot be read is refused in one line."""
    path = where / ROWS
    if not path.exists():
        return [], 0.0
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        rows = [dict(r) for r in kept["rows"]]
        if any(not set(FIGURES) <= set(r) <= set(COLUMNS) for r in rows):
            raise ValueError("rows without the campaign's columns")
        rows = [{k: r.get(k) for k in COLUMNS} for r in rows]  # older rows: no cost columns
        spent = float(kept.get("seconds", rows[-1]["seconds"] if rows else 0.0))
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise UsageError(f"{path}: a damaged checkpoint ({exc}); {_DELETE.format(where)}") from None
    return rows, spent


def save_rows(where: Path, rows: list[dict[str, Any]], seconds: float) -> None:
    """Keep a game's rows so far and its seconds so far in ``where/rows.json`` (atomically)."""
    from nimproof.datasets.store import atomic_write  # lazy: start-up time (numba)

    text = json.dumps({"rows": rows, "seconds": round(seconds, 3)}).encode()
    atomic_write(where / ROWS, lambda f: f.write(text))


def check_checkpoint(where: Path, spec: str, depth: int, start: int = 16) -> int:
    """Open a game's checkpoint as a run will (rows, state, value file) and count its values
    against the state (:meth:`~nimproof.engines.mapped.MappedTable.check_values`); refuses a
    damaged one in one line. Returns the heaps it holds (0 without a checkpoint)."""
    from nimproof.engines.mapped import MappedTable, state_path  # lazy: start-up time (numba)
    from nimproof.engines.sparse import split_rule  # lazy: start-up time (numba)

    if not where.exists():
        return 0
    rows, _ = kept_rows(where)
    rule = split_rule(parse_spec(spec))
    if rule is None:
        return 0  # refused with its own message when the game runs
    if not state_path(where / VALUES).exists():
        if rows:
            raise UsageError(f"{where}: rows without their table; {_DELETE.format(where)}")
        return 0
    try:
        table = MappedTable(rule, (1 << depth) + 1, where / VALUES, grow=True)
        table.check_values()
    except UsageError as exc:  # the table's own advice (delete a file) becomes the folder's
        raise UsageError(f"{str(exc).split('; ')[0]}; {_DELETE.format(where)}") from None
    if rows and max(r["n"] for r in rows) >= table.n:
        raise UsageError(
            f"{where}: rows past the table's {table.n:,} heaps; {_DELETE.format(where)}"
        )
    # A row is recorded as soon as its doubling ends: a table past the next doubling lost rows.
    have = {r["log2_n"] for r in rows}
    missing = min((k for k in range(start, depth + 1) if k not in have), default=depth + 1)
    if table.n > (1 << missing) + 1 and missing <= depth:
        raise UsageError(
            f"{where}: a table past 2^{missing} heaps without its row; {_DELETE.format(where)}"
        )
    return int(table.n)


def drop_checkpoint(where: Path) -> None:
    """Delete a game's checkpoint: renamed first (one step), so that a kill in the middle of
    the deletion leaves no half checkpoint under the game's name."""
    if where.exists():
        gone = where.with_name(where.name + DROPPED)
        shutil.rmtree(gone, ignore_errors=True)
        os.replace(where, gone)
        shutil.rmtree(gone, ignore_errors=True)


def checkpoint_bytes(folder: str | os.PathLike[str]) -> tuple[int, int]:
    """The game checkpoints in ``folder`` and the disk they take (blocks, not lengths)."""
    found = Path(folder).glob("*") if Path(folder).is_dir() else []
    games = [p for p in found if p.is_dir() and not p.name.endswith(DROPPED)]
    used = sum(f.stat().st_blocks * 512 for g in games for f in g.iterdir() if f.is_file())
    return len(games), used


def campaign_path(out: str | os.PathLike[str]) -> Path:
    """The parquet file of a campaign folder."""
    return Path(out) / "campaign.parquet"


def load_campaign(out: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The rows stored in ``OUT/campaign.parquet`` (none when there is no file)."""
    path = campaign_path(out)
    if not path.exists():
        return []
    try:
        frame = pd.read_parquet(path)
    except Exception as exc:
        raise UsageError(f"{path}: unreadable campaign ({exc}); delete it to start again") from None
    frame = frame.astype(object).where(frame.notna(), None)
    return [
        {k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()}
        for r in frame.to_dict(orient="records")
    ]


def save_campaign(out: str | os.PathLike[str], rows: list[dict[str, Any]]) -> Path:
    """Write the rows to ``OUT/campaign.parquet`` atomically, by game and depth."""
    from nimproof.datasets.store import atomic_write  # lazy: start-up time (numba)

    path = campaign_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame([{k: r.get(k) for k in COLUMNS} for r in rows], columns=list(COLUMNS))
    for col in (
        "log2_n",
        "n",
        "largest_at",
        "largest",
        "num_rare",
        "last_rare",
        "period",
        "preperiod",
        "window_end",
        "projected_to",
    ):
        frame[col] = frame[col].astype("Int64")
    for col in ("doubling_seconds", "projected_seconds"):
        frame[col] = frame[col].astype("Float64")
    frame["method"] = frame["method"].astype("string")
    frame = frame.sort_values(["code", "log2_n"], kind="stable")
    atomic_write(path, lambda f: frame.to_parquet(f, index=False))
    return path


def _reached(rows: list[dict[str, Any]], depth: int) -> bool:
    """True when a game's stored rows reach ``depth`` or prove a period."""
    return any(r["log2_n"] >= depth or r.get("proved") for r in rows)


def checkpoint_times(rows: list[dict[str, Any]], folder: Path) -> list[dict[str, Any]]:
    """``rows`` with each missing ``doubling_seconds`` (rows written before the column)
    read from the game's checkpoint when it has that doubling and the one before: its rows
    hold the seconds of one table's history, while the campaign's file may mix runs that
    started the game again from heap 0. Rows it cannot fill are left for
    :func:`.campaign_cost.project`. Returns new dicts."""
    times: dict[str, dict[int, float]] = {}
    out = []
    for given in rows:
        row = dict(given)
        if row.get("doubling_seconds") is None:
            code = str(row["code"])
            if code not in times:
                times[code] = _doubling_times(game_folder(folder, code))
            row["doubling_seconds"] = times[code].get(int(row["log2_n"]))
        out.append(row)
    return out


def _doubling_times(where: Path) -> dict[int, float]:
    """The seconds of each doubling in a checkpoint's rows: measured (newer rows), or the
    difference to the doubling before when that is there too (none without a readable
    checkpoint)."""
    try:
        rows, _ = kept_rows(where)
    except UsageError:
        return {}  # refused with its own message if the game runs
    seconds = {int(r["log2_n"]): float(r["seconds"]) for r in rows}
    times = {
        k: round(t - seconds[k - 1], 3)
        for k, t in seconds.items()
        if k - 1 in seconds and t > seconds[k - 1]
    }
    measured = {int(r["log2_n"]): r["doubling_seconds"] for r in rows if r["doubling_seconds"]}
    return times | measured


@dataclass(frozen=True, slots=True)
class CampaignRun:
    """What a campaign run did: every row of the games asked for (in list order, cost
    columns filled for the target depth), the games computed now, where, the games left
    out by ``skip_dense`` and the cost summary (:func:`.campaign_cost.cost_summary`)."""

    rows: list[dict[str, Any]]
    computed: int
    where: str
    skipped: list[str]
    cost: CostSummary


def by_game(rows: list[dict[str, Any]], depth: int) -> dict[str, list[dict[str, Any]]]:
    """Rows grouped by game (first appearance order), each game's in depth order with its
    cost columns filled for ``2^depth`` (:func:`.campaign_cost.project`)."""
    games: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        games.setdefault(str(row["code"]), []).append(row)
    return {c: project(sorted(g, key=lambda r: int(r["log2_n"])), depth) for c, g in games.items()}


def plan(
    specs: list[str],
    kept: dict[str, list[dict[str, Any]]],
    depth: int,
    seconds: float | None = None,
    skip_dense: bool = False,
) -> tuple[list[str], list[str]]:
    """The games a run computes, in the order they are handed out, and those it skips.

    A game already at ``depth`` or proved is not run. With ``skip_dense`` a game whose
    next doubling is projected dense (:func:`.campaign_cost.next_method`: its deepest row
    took the dense method and its rare share is not falling below the engine's threshold
    at the next doubling) is skipped: its rows stay. The others go longest first (the projected seconds to
    ``2^depth``, at most ``seconds``; a game without rows counts as the longest), so that
    on several workers the last game to finish is a short one."""
    todo, skipped = [], []
    for spec in specs:
        rows = kept.get(spec, [])
        if _reached(rows, depth):
            continue
        if skip_dense and rows and next_method(rows, depth) == "dense":
            skipped.append(spec)
        else:
            todo.append(spec)

    def cost(spec: str) -> float:
        rows = kept.get(spec)
        if not rows:
            return math.inf
        left = float(rows[-1].get("projected_seconds") or 0.0)
        return left if seconds is None else min(left, seconds)

    return sorted(todo, key=cost, reverse=True), skipped


def run_campaign(
    specs: list[str],
    depth: int,
    out: str | os.PathLike[str],
    *,
    start: int = 16,
    scheduler: str | None = None,
    workers: int | None = None,
    seconds: float | None = None,
    progress: Progress | None = None,
    tables: str | os.PathLike[str] | None = None,
    drop_tables: bool = False,
    skip_dense: bool = False,
) -> CampaignRun:
    """Run the campaign on ``specs`` (see :class:`CampaignRun` for what it returns).

    Each game's checkpoint lives in ``tables`` (default ``OUT/tables``) until its period
    is proved (or, with ``drop_tables``, until its rows are saved). Every checkpoint of a
    game to run is opened and counted first, so a damaged one is refused in one line
    before any work. Rows already in ``campaign.parquet`` stay as they are (older files
    without the cost columns too); a game's new rows are added beside them, and every
    row's projection is made again for ``depth``. Which games run, and in what order:
    :func:`plan`.
    """
    folder = Path(out) / "tables" if tables is None else Path(tables)
    kept = by_game(checkpoint_times(load_campaign(out), folder), depth)
    todo, skipped = plan(specs, kept, depth, seconds, skip_dense)
    done = [len(specs) - len(todo)]
    for spec in todo:
        check_checkpoint(game_folder(folder, spec), spec, depth, start)

    def finished(spec: str, rows: Any) -> None:
        if isinstance(rows, list):
            have = {r["log2_n"] for r in kept.get(spec, [])}
            new = kept.get(spec, []) + [r for r in rows if r["log2_n"] not in have]
            kept[spec] = project(sorted(new, key=lambda r: int(r["log2_n"])), depth)
        done[0] += 1
        save_campaign(out, [r for s in kept for r in kept[s]])
        # The rows are saved: a proved game's table is no longer needed.
        if isinstance(rows, list) and (drop_tables or any(r["proved"] for r in kept[spec])):
            drop_checkpoint(game_folder(folder, spec))
        if progress is not None:
            progress(done[0], len(specs))

    args = (depth, start, seconds, str(folder))
    where = run_tasks(todo, campaign_game, args, scheduler, workers, finished)
    save_campaign(out, [r for s in kept for r in kept[s]])
    if drop_tables:
        for spec in specs:
            drop_checkpoint(game_folder(folder, spec))
    rows = [r for s in specs for r in kept.get(s, [])]
    cost = cost_summary({s: kept[s] for s in specs if s in kept}, depth)
    return CampaignRun(rows, len(todo), where, skipped, cost)


def markdown(rows: list[dict[str, Any]], title: str, cost: Any = None) -> str:
    """Every doubling of every game in the list's format, then each doubling's method, its
    seconds and the projection to the target depth (:mod:`.campaign_cost`); ``cost`` (a
    :class:`.campaign_cost.CostSummary`) adds its line under the title."""
    lines = [f"# {title}", ""]
    if cost is not None:
        lines += [f"Still to do: {cost.line()}.", ""]
    lines += [
        "game | n | largest idx | largest | rare mask | num rare | last rare | period"
        " | method | doubling s | projected s",
        ":--- | --- | --- | --- | ---: | ---: | ---: | :--- | :--- | ---: | ---:",
    ]
    deepest: dict[str, int] = {}
    for r in rows:
        deepest[str(r["code"])] = max(deepest.get(str(r["code"]), 0), int(r["log2_n"]))
    for r in rows:
        period = "none found"
        if r.get("period") is not None:
            period = f"{r['period']} from {r['preperiod']}" + (
                f", proved ({r['theorem']}; window to {r['window_end']}; `{r['command']}`)"
                if r.get("proved")
                else ", not proved"
            )
        mask = str(r["rare_mask"]) + (" +pos" if r.get("rare_by_position") else "")
        lines.append(
            f"{r['code']} | 2^{r['log2_n']} | {r['largest_at']} | {r['largest']} | {mask} | "
            f"{r['num_rare']} | {r['last_rare']} | {period} | "
            f"{_cost_cells(r, int(r['log2_n']) == deepest[str(r['code'])])}"
        )
    return "\n".join(lines) + "\n"


def _cost_cells(row: dict[str, Any], deepest: bool) -> str:
    """The method (with "by rule" for an older row), the doubling's seconds and, on a
    game's deepest row only, the projection ("to 2^D: S"; empty once proved). The
    projection of a shallower row is kept in the parquet file: made from the few
    doublings known then, it says little about the game now."""
    method, by_rule = method_of(row)
    seconds = row.get("doubling_seconds")
    left = row.get("projected_seconds") if deepest else None
    projected = "" if left is None else f"to 2^{row.get('projected_to')}: {left:,.0f}"
    return (
        f"{method}{' (by rule)' if by_rule else ''} | "
        f"{'' if seconds is None else f'{seconds:,.1f}'} | {projected}"
    )
