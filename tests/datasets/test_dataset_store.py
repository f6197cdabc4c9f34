"""Stored tables: round trips, reuse, atomic writes and detection of damaged files."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import nimproof
from nimproof import datasets
from nimproof.datasets import store
from nimproof.datasets.store import heap_table
from nimproof.engines import grundy_table, multi_table, reference
from nimproof.errors import DatasetError
from nimproof.games import parse_spec


def _meta(path: Path) -> dict[str, object]:
    return json.loads(pq.read_schema(path).metadata[b"nimproof"])


def test_heap_table_round_trips_with_its_metadata(tmp_path: Path) -> None:
    game = parse_spec("kayles")
    values = datasets.get_or_compute(game, 200, data_dir=tmp_path)
    assert values.tolist() == reference.heap_table(game, 200)  # type: ignore[arg-type]
    table = datasets.load("kayles", data_dir=tmp_path)
    assert table.grundy.tolist() == values.tolist()
    assert list(table.frame.columns) == ["n", "grundy"]
    meta = _meta(table.path)  # type: ignore[arg-type]
    assert meta["spec"] == "kayles" and meta["kind"] == "grundy" and meta["layout"] == "heap"
    assert meta["bound"] == 200 and meta["heaps"] == 1 and meta["engine"] == "sparse-space"
    assert meta["version"] == nimproof.__version__ and meta["misere"] is False
    assert datetime.fromisoformat(str(meta["created"])).utcoffset() is not None
    assert meta["sha256"] == datasets.content_hash(table.frame)


def test_misere_table_is_stored_under_its_misere_spec(tmp_path: Path) -> None:
    game = parse_spec("misere:knim:3")
    values = datasets.get_or_compute(game, 50, data_dir=tmp_path)
    table = datasets.load("misere:knim:3", data_dir=tmp_path)
    assert table.misere and table.grundy.tolist() == values.tolist()
    assert list(table.frame.columns) == ["n", "grundy"]
    assert not datasets.table_path("knim:3", data_dir=tmp_path).exists()


def test_box_tables_round_trip_with_and_without_values(tmp_path: Path) -> None:
    for spec, heaps, side in (("moore:2", 3, 7), ("staircase", 3, 5), ("misere:nim", 2, 9)):
        game = parse_spec(spec)
        computed = datasets.get_or_compute_multi(game, heaps, side, data_dir=tmp_path)
        table = datasets.load(spec, heaps=heaps, data_dir=tmp_path)
        again = table.to_multi()
        assert np.array_equal(again.p_positions, computed.p_positions)
        if computed.values is None:
            assert again.values is None and "grundy" not in table.frame.columns
        else:
            assert np.array_equal(again.values, computed.values)  # type: ignore[arg-type]
        assert list(table.frame.columns)[:heaps] == [f"h{i}" for i in range(heaps)]
        assert table.frame["p_position"].dtype == bool


def test_smaller_bound_is_sliced_from_the_stored_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = parse_spec("half-heap")
    full = datasets.get_or_compute(game, 1000, data_dir=tmp_path)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("recomputed although stored")

    monkeypatch.setattr(store, "grundy_table", refuse)
    assert datasets.get_or_compute(game, 300, data_dir=tmp_path).tolist() == full[:301].tolist()


def test_larger_bound_extends_the_stored_table_from_its_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = parse_spec("dawsons-kayles")
    datasets.get_or_compute(game, 100, data_dir=tmp_path)
    prefixes: list[int] = []

    def spy(
        g: object, n: int, *, prefix: np.ndarray | None = None, progress: object = None
    ) -> np.ndarray:
        prefixes.append(-1 if prefix is None else len(prefix))
        return grundy_table(g, n, prefix=prefix)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "grundy_table", spy)
    longer = datasets.get_or_compute(game, 400, data_dir=tmp_path)
    assert prefixes == [101]
    assert longer.tolist() == grundy_table(game, 400).tolist()
    assert datasets.load(game, data_dir=tmp_path).bound == 400


def test_box_with_a_smaller_bound_is_sliced(tmp_path: Path) -> None:
    game = parse_spec("misere:knim:2")
    datasets.get_or_compute_multi(game, 2, 12, data_dir=tmp_path)
    small = datasets.get_or_compute_multi(game, 2, 5, data_dir=tmp_path, store=False)
    assert np.array_equal(small.values, multi_table(game, 2, 5).values)  # type: ignore[arg-type]


def test_environment_variable_and_default_choose_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(datasets.ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    assert datasets.data_directory() == tmp_path / "data"
    monkeypatch.setenv(datasets.ENV_VAR, str(tmp_path / "elsewhere"))
    datasets.get_or_compute(parse_spec("nim"), 10)
    assert len(list((tmp_path / "elsewhere").glob("*.parquet"))) == 1
    assert datasets.data_directory(tmp_path / "given") == tmp_path / "given"


def test_a_write_that_dies_halfway_leaves_the_previous_table_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = parse_spec("knim:5")
    datasets.get_or_compute(game, 100, data_dir=tmp_path)
    path = datasets.table_path(game, data_dir=tmp_path)
    before = path.read_bytes()

    def dying_write(table: pa.Table, where: object, **kwargs: object) -> None:
        where.write(b"PAR1 half a file")  # type: ignore[attr-defined]
        raise KeyboardInterrupt("killed mid-write")

    monkeypatch.setattr(store.pq, "write_table", dying_write)
    with pytest.raises(KeyboardInterrupt):
        datasets.get_or_compute(game, 5000, data_dir=tmp_path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    assert datasets.load(game, data_dir=tmp_path).bound == 100


def test_truncated_file_is_reported_in_one_line_naming_the_file_and_the_fix(tmp_path: Path) -> None:
    game = parse_spec("kayles")
    datasets.get_or_compute(game, 500, data_dir=tmp_path)
    path = datasets.table_path(game, data_dir=tmp_path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(DatasetError) as info:
        datasets.get_or_compute(game, 100, data_dir=tmp_path)
    message = str(info.value)
    assert "\n" not in message and path.name in message
    assert "nimproof data verify" in message and "delete" in message


def _rewrite(path: Path, change: object) -> None:
    arrow = pq.read_table(path)
    frame = arrow.to_pandas()
    change(frame)  # type: ignore[operator]
    out = pa.Table.from_pandas(frame, preserve_index=False).replace_schema_metadata(
        arrow.schema.metadata
    )
    pq.write_table(out, path)


def test_altered_values_are_detected_by_the_content_hash(tmp_path: Path) -> None:
    game = parse_spec("kayles")
    datasets.get_or_compute(game, 300, data_dir=tmp_path)
    path = datasets.table_path(game, data_dir=tmp_path)

    def bump(frame: object) -> None:
        frame.loc[77, "grundy"] += 1  # type: ignore[attr-defined]

    _rewrite(path, bump)
    with pytest.raises(DatasetError, match="hash mismatch") as info:
        datasets.load(game, data_dir=tmp_path)
    assert "\n" not in str(info.value) and path.name in str(info.value)


def test_metadata_that_does_not_match_the_file_is_detected(tmp_path: Path) -> None:
    game = parse_spec("nim")
    datasets.get_or_compute(game, 40, data_dir=tmp_path)
    path = datasets.table_path(game, data_dir=tmp_path)
    arrow = pq.read_table(path)
    meta = json.loads(arrow.schema.metadata[b"nimproof"])
    meta["bound"] = 50
    pq.write_table(arrow.replace_schema_metadata({b"nimproof": json.dumps(meta).encode()}), path)
    with pytest.raises(DatasetError, match="rows"):
        datasets.load(game, data_dir=tmp_path)


def test_a_file_holding_another_spec_is_detected(tmp_path: Path) -> None:
    datasets.get_or_compute(parse_spec("knim:2"), 40, data_dir=tmp_path)
    wrong = datasets.table_path("knim:3", data_dir=tmp_path)
    datasets.table_path("knim:2", data_dir=tmp_path).rename(wrong)
    with pytest.raises(DatasetError, match="not knim:3"):
        datasets.get_or_compute(parse_spec("knim:3"), 10, data_dir=tmp_path)


def test_a_parquet_file_without_metadata_is_detected(tmp_path: Path) -> None:
    path = tmp_path / "stray.parquet"
    pq.write_table(pa.table({"n": [0, 1], "grundy": [0, 1]}), path)
    with pytest.raises(DatasetError, match="no nimproof metadata"):
        datasets.read(path)


def test_missing_table_is_a_dataset_error_that_says_how_to_make_it(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="nimproof data build"):
        datasets.load("kayles", data_dir=tmp_path)


def test_catalog_lists_sound_and_broken_files(tmp_path: Path) -> None:
    datasets.get_or_compute(parse_spec("knim:4"), 30, data_dir=tmp_path)
    datasets.get_or_compute_multi(parse_spec("moore:2"), 2, 5, data_dir=tmp_path)
    (tmp_path / "junk.parquet").write_bytes(b"not parquet at all")
    entries = {e.path.name: e for e in datasets.catalog(tmp_path)}
    assert len(entries) == 3
    assert not entries["junk.parquet"].ok and "junk.parquet" in entries["junk.parquet"].problem
    good = sorted((e.spec, e.layout, e.bound, e.rows) for e in entries.values() if e.ok)
    assert good == [("knim:4", "heap", 30, 31), ("moore:2", "box", 5, 36)]
    assert datasets.catalog(tmp_path / "nowhere") == []


def test_spot_check_finds_values_that_disagree_with_the_reference(tmp_path: Path) -> None:
    game = parse_spec("kayles")
    values = datasets.get_or_compute(game, 100, data_dir=tmp_path)
    assert datasets.spot_check(datasets.load(game, data_dir=tmp_path)) is None
    wrong = values.copy()
    wrong[10] ^= 1
    # A table whose hash is right but whose values are wrong: only the reference can tell.
    datasets.save(datasets.heap_table(game, wrong, "test"), tmp_path)
    problem = datasets.spot_check(datasets.load(game, data_dir=tmp_path))
    assert problem is not None and "heap 10" in problem


@pytest.mark.parametrize(
    ("spec", "heaps"), [("moore:2", 3), ("sum:knim:3+half-heap", 2), ("misere:nim", 2)]
)
def test_spot_check_accepts_correct_box_tables(tmp_path: Path, spec: str, heaps: int) -> None:
    datasets.get_or_compute_multi(parse_spec(spec), heaps, 6, data_dir=tmp_path)
    assert (
        datasets.spot_check(datasets.load(spec, heaps=heaps, data_dir=tmp_path), count=100) is None
    )


def test_build_stores_the_listed_standard_tables(tmp_path: Path) -> None:
    items = (datasets.Standard("knim:2", 1000), datasets.Standard("moore:2", 7, heaps=3))
    datasets.build(tmp_path, items=items)
    assert sorted((e.spec, e.bound, e.ok) for e in datasets.catalog(tmp_path)) == [
        ("knim:2", 1000, True),
        ("moore:2", 7, True),
    ]


def test_standard_list_names_the_tables_of_the_brief() -> None:
    wanted = {("kayles", 1 << 16), ("half-heap", 100_000), ("subtraction:1,3,4", 1_000_000)}
    wanted |= {(f"knim:{k}", 100_000) for k in range(1, 11)}
    have = {(s.spec, s.bound) for s in datasets.STANDARD if s.heaps is None}
    assert wanted <= have
    assert any(s.spec == "dawsons-kayles" for s in datasets.STANDARD)


def _set_meta(path: Path, change: object) -> None:
    arrow = pq.read_table(path)
    meta = json.loads(arrow.schema.metadata[b"nimproof"])
    change(meta)  # type: ignore[operator]
    pq.write_table(arrow.replace_schema_metadata({b"nimproof": json.dumps(meta).encode()}), path)


def test_the_hash_reads_values_at_their_stored_width(tmp_path: Path) -> None:
    # The definition of the "stored-width" hash: column name, NUL, type name, NUL, the values
    # as stored (one byte each for uint8); the row numbers (n) are checked, not hashed.
    values = np.array([0, 1, 2, 0, 3], dtype=np.uint8)
    frame = pd.DataFrame({"n": np.arange(5, dtype=np.int64), "grundy": values})
    want = hashlib.sha256(b"grundy\0uint8\0" + values.tobytes()).hexdigest()
    assert datasets.content_hash(frame) == want
    wide = frame.astype({"grundy": np.int64})
    assert datasets.content_hash(wide) != want  # the width is part of what is hashed
    legacy = hashlib.sha256(
        b"n\0" + np.arange(5, dtype="<i8").tobytes() + b"grundy\0" + values.astype("<i8").tobytes()
    ).hexdigest()
    assert datasets.content_hash(frame, store.HASH_INT64) == legacy
    path = datasets.save(
        heap_table(parse_spec("kayles"), values.astype(np.int64), "test"), tmp_path
    ).path
    assert path is not None and _meta(path)["hash"] == "stored-width"


def test_tables_written_before_the_stored_width_hash_are_still_read(tmp_path: Path) -> None:
    # A file without a "hash" key hashed every column as int64: it is read, checked that way,
    # and an altered value in it is still caught; a hash this version does not know is refused.
    game = parse_spec("kayles")
    datasets.get_or_compute(game, 300, data_dir=tmp_path)
    path = datasets.table_path(game, data_dir=tmp_path)
    frame = datasets.load(game, data_dir=tmp_path).frame

    def legacy(meta: dict[str, object]) -> None:
        del meta["hash"]
        meta["sha256"] = datasets.content_hash(frame, store.HASH_INT64)

    _set_meta(path, legacy)
    table = datasets.load(game, data_dir=tmp_path)
    assert table.hash == "int64" and table.grundy.tolist() == frame["grundy"].tolist()

    def bump(frame: object) -> None:
        frame.loc[77, "grundy"] += 1  # type: ignore[attr-defined]

    _rewrite(path, bump)
    with pytest.raises(DatasetError, match="hash mismatch"):
        datasets.load(game, data_dir=tmp_path)
    datasets.save(heap_table(game, frame["grundy"].to_numpy(), "test"), tmp_path)
    _set_meta(path, lambda meta: meta.update(hash="blake3"))
    with pytest.raises(DatasetError, match="unknown content hash 'blake3'") as info:
        datasets.load(game, data_dir=tmp_path)
    assert "\n" not in str(info.value)


def test_row_numbers_left_out_of_the_hash_are_still_checked(tmp_path: Path) -> None:
    game = parse_spec("kayles")
    datasets.get_or_compute(game, 100, data_dir=tmp_path)
    path = datasets.table_path(game, data_dir=tmp_path)

    def renumber(frame: object) -> None:
        frame.loc[5, "n"] = 6  # type: ignore[attr-defined]

    _rewrite(path, renumber)
    with pytest.raises(DatasetError, match=r"column 'n' is not 0\.\.bound"):
        datasets.load(game, data_dir=tmp_path)
