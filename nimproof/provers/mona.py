"""Run the MONA decision procedure on one WS1S file, bounded in time and memory.

MONA prints its answer on stdout and exits with 0 whether the formula holds
or not, so the answer is read from the text:

* ``Formula is valid``: true for every assignment of the free variables;
* ``A counter-example of least length (L) is:`` followed by ``NAME = {...}``
  lines: false for that assignment (a candidate only: the caller re-checks);
* ``Formula is unsatisfiable``: false for every assignment;
* an error message and exit code 255 (a syntax error is an internal error of
  the compiler, never a verdict), ``out of memory`` under the address-space
  limit, or a SIGABRT when an automaton outgrows MONA's fixed BDD table: all
  three, and a timeout, are "no answer".
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Outcome = Literal["valid", "counterexample", "unsatisfiable", "timeout", "oom", "abort", "error"]

#: The message a method gives when the tool is absent.
MISSING = "mona is not installed (apt-get install mona)"
DEFAULT_MEMORY_MB = 4096

_SET = re.compile(r"^(\w+) = \{([0-9, ]*)\}$")
_FIRST = re.compile(r"^(\w+) = (\d+)$")
_BOOL = re.compile(r"^(\w+) = ([01])$")


@dataclass(frozen=True)
class MonaAnswer:
    """What one MONA run said; ``assignment`` maps free variables to numbers (sets as sums of 2^p)."""

    outcome: Outcome
    assignment: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    message: str = ""
    #: The positions of each set variable of the assignment, as MONA printed them.
    sets: dict[str, tuple[int, ...]] = field(default_factory=dict)


def available() -> bool:
    """True when a ``mona`` executable is on the PATH."""
    return shutil.which("mona") is not None


def run_text(text: str, timeout: float, memory_mb: int = DEFAULT_MEMORY_MB) -> MonaAnswer:
    """Write ``text`` to a temporary file and run ``mona -q`` on it."""
    exe = shutil.which("mona")
    if exe is None:
        return MonaAnswer("error", message=MISSING)
    with tempfile.TemporaryDirectory(prefix="nimproof-mona-") as tmp:
        path = os.path.join(tmp, "obligation.mona")
        with open(path, "w", encoding="ascii") as fh:
            fh.write(text)
        return _run(exe, path, timeout, memory_mb)


def _run(exe: str, path: str, timeout: float, memory_mb: int) -> MonaAnswer:
    limit = memory_mb << 20

    def child_limits() -> None:  # runs in the child before exec
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    t0 = time.monotonic()
    for _ in range(CRASH_TRIES):
        left = timeout - (time.monotonic() - t0)
        try:
            proc = subprocess.run(
                [exe, "-q", path],
                capture_output=True,
                text=True,
                timeout=max(left, 0.05),
                preexec_fn=child_limits,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return MonaAnswer(
                "timeout", seconds=time.monotonic() - t0, message=f"over {timeout:.0f} s"
            )
        if not _crashed(proc.returncode):
            break
    seconds = time.monotonic() - t0
    return classify(proc.returncode, proc.stdout, seconds)


#: Debian's MONA 1.4 now and then dies of a segmentation fault on a formula it decides on
#: the next run (seen about once in 30 runs of one small obligation): a run killed by a
#: signal other than the BDD cap's abort is run again, up to this many times in all.
CRASH_TRIES = 3


def _crashed(returncode: int) -> bool:
    """True when MONA was killed by a signal other than its own abort (the BDD table cap)."""
    return returncode < 0 and returncode != -6


def classify(returncode: int, stdout: str, seconds: float = 0.0) -> MonaAnswer:
    """Turn MONA's exit code and stdout into a :class:`MonaAnswer`."""
    if returncode in (-6, 134):
        return MonaAnswer("abort", seconds=seconds, message="automaton too large (BDD table cap)")
    if "out of memory" in stdout:
        return MonaAnswer("oom", seconds=seconds, message="out of memory")
    if returncode != 0:
        first = stdout.strip().splitlines()[:2]
        return MonaAnswer("error", seconds=seconds, message=" ".join(first) or f"exit {returncode}")
    text = stdout.lstrip()
    if text.startswith("Formula is valid"):
        return MonaAnswer("valid", seconds=seconds)
    if text.startswith("A counter-example"):
        return MonaAnswer("counterexample", parse_assignment(text), seconds, sets=parse_sets(text))
    if text.startswith("Formula is unsatisfiable"):
        return MonaAnswer("unsatisfiable", parse_assignment(text), seconds, sets=parse_sets(text))
    return MonaAnswer("error", seconds=seconds, message=f"unexpected output: {text[:120]!r}")


def parse_sets(text: str) -> dict[str, tuple[int, ...]]:
    """The positions of every ``NAME = {...}`` line of the first example in MONA's output."""
    out: dict[str, tuple[int, ...]] = {}
    for line in text.splitlines():
        if line.startswith("A satisfying example"):
            break
        m = _SET.match(line.strip())
        if m:
            out[m.group(1)] = tuple(
                sorted({int(x) for x in m.group(2).replace(" ", "").split(",") if x})
            )
    return out


def parse_assignment(text: str) -> dict[str, int]:
    """The ``NAME = {...}`` / ``NAME = k`` lines of the first example in MONA's output.

    A set ``{p, q}`` is the number ``2**p + 2**q``; the bit rows above them
    (where ``X`` marks a don't-care bit) are not read.
    """
    out: dict[str, int] = {}
    for line in text.splitlines():
        if line.startswith("A satisfying example"):
            break
        m = _SET.match(line.strip())
        if m:
            positions = [int(x) for x in m.group(2).replace(" ", "").split(",") if x]
            out[m.group(1)] = sum(1 << p for p in set(positions))
            continue
        m = _FIRST.match(line.strip()) or _BOOL.match(line.strip())
        if m and m.group(1) not in out:
            out[m.group(1)] = int(m.group(2))
    return out


@dataclass
class Obligations:
    """The run of a list of obligation files (:func:`run_obligations`): the names found valid,
    the first that was not (with MONA's answer, or None when time ran out before it), and the
    number of runs and MONA seconds."""

    done: list[str] = field(default_factory=list)
    failed: str | None = None
    answer: MonaAnswer | None = None
    runs: int = 0
    seconds: float = 0.0

    def record(self, stats: dict[str, object]) -> None:
        """Write ``mona_runs`` and ``mona_seconds`` into a method's stats."""
        stats["mona_runs"] = self.runs
        stats["mona_seconds"] = round(self.seconds, 3)


def run_obligations(
    files: Sequence[tuple[str, str]],
    timeout: float,
    memory_mb: int,
    time_left: Callable[[], float],
) -> Obligations:
    """Run each ``(name, text)`` in order until one is not valid; each run gets at most
    ``timeout`` seconds and what ``time_left()`` allows. A syntax error (an internal error of
    the caller's compiler) raises ``RuntimeError``."""
    out = Obligations()
    for name, text in files:
        left = min(timeout, time_left())
        if left <= 0.05:
            out.failed = name
            return out
        answer = run_text(text, left, memory_mb)
        out.runs += 1
        out.seconds += answer.seconds
        if answer.outcome == "valid":
            out.done.append(name)
            continue
        if answer.outcome == "error":
            raise RuntimeError(f"MONA rejected obligation {name}: {answer.message}")
        out.failed, out.answer = name, answer
        return out
    return out


# ---------------------------------------------------------------------------
# deciding a whole list of obligations in one call, the shrinking included
# ---------------------------------------------------------------------------


class ObligationText(Protocol):
    """One obligation file as the caller lists it: its name and text, and for a split
    obligation (empty ``text``) its parts followed by the plain form to fall back to."""

    @property
    def name(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def fallback(self) -> Sequence[ObligationText]: ...


@dataclass(frozen=True)
class Numbers:
    """How MONA's sets are numbers, as data: the value of each position (``places[i]``: 2^i
    in binary, the Fibonacci number F(i+2) in Zeckendorf numeration), and whether a set
    must be asserted ``valid`` to be a number (Zeckendorf)."""

    places: tuple[int, ...]
    valid: bool

    def value(self, positions: Sequence[int]) -> int:
        """The number whose positions are ``positions``."""
        return sum(self.places[p] for p in set(positions))

    def set_text(self, value: int) -> str:
        """MONA's set constant of ``value`` (greedy from the largest place: the binary digits,
        or the Zeckendorf representation)."""
        out = []
        for i in range(len(self.places) - 1, -1, -1):
            if self.places[i] <= value:
                value -= self.places[i]
                out.append(i)
        if value:
            raise ValueError("a number beyond the places given")
        return "{" + ",".join(str(i) for i in reversed(out)) + "}"


@dataclass(frozen=True)
class Job:
    """Everything :func:`decide` needs: the shared ``header``, the obligations in order,
    the limits (seconds per obligation, memory, the claim's ``deadline`` on the monotonic
    clock, 0 for none), the free variables a counterexample is shrunk over, and the names
    of the obligations whose counterexamples are not shrunk."""

    header: str
    obligations: Sequence[ObligationText]
    numbers: Numbers
    timeout: float
    memory_mb: int
    deadline: float
    free: tuple[str, ...] = ()
    unshrunk: tuple[str, ...] = ()


@dataclass
class Decision:
    """What :func:`decide` found: the obligations proved valid (``done``, and ``record``: each
    file MONA decided valid, as ``(name, text, "valid")`` for the certificate), or the first
    that was not: ``failed`` with MONA's ``answer`` (None: out of time before it) and, for a
    counterexample, its ``assignment`` as numbers, shrunk."""

    done: list[str] = field(default_factory=list)
    record: list[tuple[str, str, str]] = field(default_factory=list)
    failed: str | None = None
    answer: MonaAnswer | None = None
    assignment: dict[str, int] = field(default_factory=dict)
    #: True when no ``mona`` executable is installed (nothing was run).
    missing: bool = False


#: Bisection of a counterexample's largest heap: at most this many extra MONA runs and seconds.
SHRINK_ROUNDS = 24
SHRINK_SECONDS = 3.0


def decide(
    header: str,
    obligations: Sequence[ObligationText],
    numbers: Numbers,
    limits: tuple[float, int, float],
    shrink: tuple[tuple[str, ...], tuple[str, ...]],
    stats: dict[str, Any],
) -> Decision:
    """Run the obligations in order until one is not valid, and shrink that one's
    counterexample (the smallest largest free variable, by bisection with extra MONA runs,
    time permitting): the whole MONA side of a proof in one call. The arguments are the
    fields of :class:`Job` (``limits``: seconds per obligation, memory, deadline;
    ``shrink``: the free variables, the obligations not shrunk). ``stats`` gains
    ``mona_runs`` and ``mona_seconds``. A syntax error (an internal error of the caller's
    compiler) raises ``RuntimeError``. No ``mona`` installed: ``missing``, nothing run."""
    job = Job(header, obligations, numbers, *limits, *shrink)
    out = Decision()
    if not available():
        out.missing = True
        return out
    for ob in job.obligations:
        left = min(job.timeout, _left(job))
        if left <= 0.05:
            out.failed = ob.name
            return out
        answer, name = _decide_one(job, ob, left, stats)
        if answer.outcome == "valid":
            out.done.append(name)
            parts = [ob] if ob.text else ob.fallback[:-1] if name == ob.name else ob.fallback[-1:]
            out.record += [(part.name, assumed(job, part.text), "valid") for part in parts]
            continue
        out.failed, out.answer = name, answer
        if answer.outcome in ("counterexample", "unsatisfiable"):
            out.assignment = _numbers_of(job, answer)
            if name not in job.unshrunk:
                text = ob.text if ob.text else ob.fallback[-1].text
                out.assignment = _shrink(job, text, out.assignment, stats)
        return out
    return out


def _left(job: Job) -> float:
    return float("inf") if not job.deadline else job.deadline - time.monotonic()


def assumed(job: Job, text: str) -> str:
    """``text`` with its free variables assumed to be numbers (valid sets) when the
    numeration needs it: MONA then decides the formula under that assumption."""
    if not job.numbers.valid or not text.startswith("var2 "):
        return text
    decl, _, body = text.partition(";\n")
    names = [n.strip() for n in decl[len("var2 ") :].split(",")]
    return f"{decl};\nassert {' & '.join(f'valid({n})' for n in names)};\n{body}"


def _numbers_of(job: Job, answer: MonaAnswer) -> dict[str, int]:
    """MONA's assignment as numbers of the job's numeration."""
    out = dict(answer.assignment)
    out.update({name: job.numbers.value(ps) for name, ps in answer.sets.items()})
    return out


def _decide_one(
    job: Job, ob: ObligationText, timeout: float, stats: dict[str, Any]
) -> tuple[MonaAnswer, str]:
    """Run one obligation; a split obligation falls back to its plain form when a part fails."""
    if ob.fallback and not ob.text:
        *parts, plain = ob.fallback
        deadline = time.monotonic() + timeout
        for part in parts:
            answer = _run_one(job, part, deadline - time.monotonic(), stats)
            if answer.outcome != "valid":
                return _run_one(job, plain, deadline - time.monotonic(), stats), plain.name
        return MonaAnswer("valid"), ob.name
    return _run_one(job, ob, timeout, stats), ob.name


def _run_one(job: Job, ob: ObligationText, timeout: float, stats: dict[str, Any]) -> MonaAnswer:
    answer = run_text(job.header + assumed(job, ob.text), max(timeout, 0.05), job.memory_mb)
    stats["mona_runs"] += 1
    stats["mona_seconds"] = round(stats["mona_seconds"] + answer.seconds, 3)
    if answer.outcome == "error":
        raise RuntimeError(f"MONA rejected obligation {ob.name}: {answer.message}")
    return answer


def _shrink(
    job: Job, text: str, assignment: dict[str, int], stats: dict[str, Any]
) -> dict[str, int]:
    """Bisect the largest free variable of a counterexample down with extra MONA runs."""
    decl, _, body = text.partition(";\n")
    best = assignment
    hi = max((assignment.get(x, 0) for x in job.free), default=0)
    lo = 0
    stop = time.monotonic() + SHRINK_SECONDS
    for _ in range(SHRINK_ROUNDS):
        if lo >= hi or _left(job) < 1.0 or time.monotonic() > stop:
            break
        mid = (lo + hi) // 2
        limit = job.numbers.set_text(mid)
        bound = " & ".join(f"le({x}, {limit})" for x in job.free)
        trial = f"{decl};\n({bound}) => ({body.rstrip().rstrip(';')});\n"
        answer = run_text(job.header + assumed(job, trial), min(20.0, _left(job)), job.memory_mb)
        stats["mona_runs"] += 1
        if answer.outcome in ("counterexample", "unsatisfiable"):
            best, hi = _numbers_of(job, answer), mid
        elif answer.outcome == "valid":
            lo = mid + 1
        else:
            break
    return best
