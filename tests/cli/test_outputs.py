"""Outputs that never lie or break, run end to end through a subprocess.

Each test here pins one defect a new user met: a link replaced by a regular
file, ``-`` taken for a file name, an unwritable path found only after the
work, a broken pipe turned into exit code 1, a refutation without its
counterexample, grid ids losing their ``[k=1]`` suffix, reports that do not
say what made them.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

GRID_AND_TYPO = """
[[claim]]
id = "knim"
statement = "k-Nim values are n mod (k+1)."
kind = "grundy"
game = "knim:{k}"
formula = "n % (k + 1)"
params = { k = "1..2" }
checks = { exhaustive = { max_n = 60 } }

[[claim]]
id = "typo"
statement = "A wrong modulus."
kind = "grundy"
game = "knim:3"
formula = "n % 5"
expect = "refuted"
checks = { exhaustive = { max_n = 50 } }
"""


def nimproof(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m nimproof ARGS`` and capture everything (a wide, plain terminal)."""
    full_env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "nimproof", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=full_env,
        timeout=300,
        check=False,
    )


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "conj"
    folder.mkdir()
    (folder / "claims.toml").write_text(GRID_AND_TYPO, encoding="utf-8")
    return folder


def test_json_dash_is_stdout_and_creates_no_file(corpus: Path, tmp_path: Path) -> None:
    run = nimproof("verify", str(corpus), "--json", "-", "--jobs", "1", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)  # stdout holds the JSON alone; the words went to stderr
    assert {r["verdict"]["id"] for r in data["results"]} == {"knim[k=1]", "knim[k=2]", "typo"}
    assert "3 claims" in run.stderr
    assert not (tmp_path / "-").exists()


def test_json_to_dev_stdout_keeps_stdout_clean(corpus: Path) -> None:
    run = nimproof("verify", str(corpus), "--json", "/dev/stdout", "--jobs", "1")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["summary"]["claims"] == 3  # the JSON alone
    assert "3 claims" in run.stderr
    assert Path("/dev/stdout").is_symlink() or not Path("/dev/stdout").is_file()


def test_json_through_a_symbolic_link_keeps_the_link(corpus: Path, tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    run = nimproof("verify", str(corpus), "--json", str(link), "--quiet", "--jobs", "1")
    assert run.returncode == 0, run.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text(encoding="utf-8"))["summary"]["claims"] == 3


def test_json_into_a_fifo_writes_in_place(corpus: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text(encoding="utf-8")))
    reader.start()
    run = nimproof("verify", str(corpus), "--json", str(fifo), "--quiet", "--jobs", "1")
    reader.join(timeout=60)
    assert run.returncode == 0, run.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the pipe was replaced by a regular file"
    assert json.loads(received[0])["summary"]["claims"] == 3


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "{corpus}", "--json", "{blocker}/out.json"],
        ["verify", "{corpus}", "--reports", "{blocker}"],
        ["verify", "{corpus}", "--json", "{folder}"],
        ["report", "--json", "{results}", "--out", "{blocker}/reports"],
        ["table", "kayles", "--max-n", "10", "--csv", "{blocker}/t.csv"],
        ["mine", "knim:2", "--max-n", "40", "--no-verify", "--write", "{blocker}"],
        # Paths under a regular file, and under /proc (where root passes every permission
        # check but nothing can be created): each once ended in a traceback, or after the run.
        ["verify", "{corpus}", "--json", "/proc/nimproof-results.json"],
        ["verify", "{corpus}", "--reports", "/proc/nimproof-reports"],
        ["verify", "{corpus}", "--reports", "{blocker}/reports"],
        ["atlas", "--codes", "0.16", "--max-n", "50", "--workers", "0", "--out", "{blocker}/a"],
        ["atlas", "--codes", "0.16", "--max-n", "50", "--workers", "0", "--out", "/proc/nimproof"],
        ["table", "kayles", "--max-n", "100", "--out", "{blocker}/t.parquet"],
        ["table", "kayles", "--max-n", "100", "--out", "/proc/nimproof-t.parquet"],
        ["table", "kayles", "--max-n", "10", "--save", "--data-dir", "/proc/nimproof-data"],
        ["data", "build", "--data-dir", "{blocker}/data"],
        ["data", "build", "--data-dir", "/proc/nimproof-data"],
        ["misere", "--atlas", "--codes", "0.75", "--workers", "0", "--out", "{blocker}/m"],
    ],
)
def test_unwritable_output_is_one_line_exit_2_before_any_work(
    corpus: Path, tmp_path: Path, args: list[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    results = tmp_path / "results.json"
    results.write_text('{"results": []}\n', encoding="utf-8")
    names = {"corpus": corpus, "blocker": blocker, "folder": tmp_path, "results": results}
    run = nimproof(*(a.format(**names) for a in args))
    assert run.returncode == 2
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout == ""  # nothing was decided, tabulated or mined first


def _closed_early(*args: str) -> tuple[int, str]:
    with subprocess.Popen(
        [sys.executable, "-m", "nimproof", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()  # like `| head -1`
        err = proc.stderr.read().decode()
        return proc.wait(timeout=120), err


def test_broken_pipe_exits_zero_quietly_from_rich_output() -> None:
    code, err = _closed_early("value", "nim", *(["1"] * 2001), "--limit", "0")
    assert (code, err) == (0, "")


def test_broken_pipe_exits_zero_quietly_from_table_rows() -> None:
    code, err = _closed_early("table", "knim:3", "--max-n", "90000", "--columns", "1")
    assert (code, err) == (0, "")


def test_profile_must_be_a_known_profile(corpus: Path) -> None:
    run = nimproof("verify", str(corpus), "--profile", "bogus")
    assert run.returncode == 2 and "invalid choice: 'bogus'" in run.stderr


def test_verify_prints_the_counterexample_in_words(corpus: Path) -> None:
    run = nimproof("verify", str(corpus), "--jobs", "1")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    block = out[out.index("typo: refuted") :]
    assert "position: 4" in block and "claimed: 4" in block and "true: 0" in block
    assert "re-checked by: reference implementation" in block


def test_grid_ids_keep_their_suffix_in_the_summary_table(corpus: Path) -> None:
    run = nimproof("verify", str(corpus), "--jobs", "1")
    assert "knim[k=1]" in run.stdout and "knim[k=2]" in run.stdout


def test_reports_name_profile_version_and_command(corpus: Path, tmp_path: Path) -> None:
    from nimproof import __version__

    out = tmp_path / "reports"
    run = nimproof("verify", str(corpus), "--reports", str(out), "--quiet", "--jobs", "1")
    assert run.returncode == 0, run.stderr
    for page in (out / "README.md", out / "index.html", out / "claims" / "typo.md"):
        text = page.read_text(encoding="utf-8")
        assert f"nimproof {__version__}" in text and "default" in text, page
        assert f"nimproof verify {corpus}" in text, page


def test_check_refutation_has_no_raw_python_values() -> None:
    run = nimproof(
        "check", "--game", "nim", "--p-positions", "h[0] == h[1] and h[0] > 0", "--heaps", "2"
    )
    assert run.returncode == 1
    assert "claimed False" not in run.stdout and "true 0" not in run.stdout
    assert "the claim says: not a P-position" in run.stdout
    assert "true: value 0, a P-position" in run.stdout


def test_mine_writes_nothing_without_write(tmp_path: Path) -> None:
    run = nimproof("mine", "knim:2", "--max-n", "40", "--no-verify", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert list(tmp_path.iterdir()) == []


def test_table_csv_to_stdout_and_to_a_file(tmp_path: Path) -> None:
    run = nimproof("table", "kayles", "--max-n", "12", "--csv", "-")
    lines = run.stdout.splitlines()
    assert lines[0] == "n,grundy" and lines[1:4] == ["0,0", "1,1", "2,2"] and len(lines) == 14
    out = tmp_path / "k.csv"
    assert nimproof("table", "kayles", "--max-n", "12", "--csv", str(out)).returncode == 0
    assert out.read_text(encoding="utf-8").splitlines() == lines


LONG_ID = "a-claim-id-much-longer-than-eighty-columns." + "x" * 60 + ".end"


def test_output_to_a_pipe_is_not_wrapped_at_eighty_columns(tmp_path: Path) -> None:
    folder = tmp_path / "conj"
    folder.mkdir()
    claim = GRID_AND_TYPO.split("[[claim]]")[2].replace('id = "typo"', f'id = "{LONG_ID}"')
    (folder / "long.toml").write_text("[[claim]]" + claim, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    run = subprocess.run(  # stdout is a pipe, and no COLUMNS says how wide it is
        [sys.executable, "-m", "nimproof", "verify", str(folder), "--jobs", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "NO_COLOR": "1"},
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if "│" in line and "refuted" in line]
    assert len(rows) == 1 and LONG_ID in rows[0], run.stdout  # the table's row: id unbroken
    long_lines = [line for line in run.stdout.splitlines() if len(line) > 80]
    assert long_lines, "every line was cut to 80 columns"
