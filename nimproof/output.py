"""Where output goes: one helper for every file nimproof writes on a user's behalf.

An output path given on the command line (``--json FILE``, ``--out DIR``,
``--csv FILE``, ``--write DIR``) means:

* ``-``: standard output;
* an existing device, pipe, socket or a symbolic link to one (``/dev/stdout``,
  ``/dev/null``, a FIFO): written in place, never replaced;
* a symbolic link to a regular file: the file it points to is replaced, the
  link stays;
* anything else: a regular file, written atomically (a temporary file in the
  same folder, flushed and synced, then renamed over the target), so a reader
  sees the old content or the new, never half of it.

:func:`output_file` and :func:`output_dir` check a path *before* any work is
done, so an unwritable path is a one-line :class:`~nimproof.errors.UsageError`
(exit code 2) instead of a traceback after a long run.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from nimproof.errors import UsageError

STDOUT = "-"


@dataclass(frozen=True, slots=True)
class OutputFile:
    """A checked output destination: standard output, a special file, or a regular file."""

    given: str
    path: Path | None  # None for standard output
    special: bool  # a device, pipe or socket: written in place

    @property
    def is_stdout(self) -> bool:
        """True when the output goes to standard output: ``-``, or a path that is the same
        file as standard output (``/dev/stdout``, ``/proc/self/fd/1``)."""
        if self.path is None:
            return True
        if not self.special:
            return False
        try:
            here, out = os.stat(self.path), os.fstat(sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            return False
        return (here.st_dev, here.st_ino) == (out.st_dev, out.st_ino)

    def write_text(self, text: str) -> None:
        """Write ``text`` (UTF-8) to the destination; see :func:`write_text`."""
        if self.path is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        if self.special:
            try:
                with open(self.path, "w", encoding="utf-8") as f:
                    f.write(text)
            except OSError as exc:
                raise UsageError(f"cannot write {self.given!r}: {exc.strerror}") from None
            return
        atomic_write_bytes(self.path, text.encode("utf-8"), given=self.given)


def _special(st: os.stat_result) -> bool:
    return not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode)


def _nearest_existing(path: Path) -> Path:
    p = path
    while not p.exists():
        if p.parent == p:
            break
        p = p.parent
    return p


def _writable(folder: Path) -> bool:
    """True when a file can be created (and removed) in the existing ``folder``.

    Tried for real: permission bits do not tell (root passes ``os.access`` on
    read-only and virtual file systems such as ``/proc``)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    try:
        fd, name = tempfile.mkstemp(prefix=".nimproof-probe.", dir=folder)
    except OSError:
        return False
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)
    return True


def _check_creatable(path: Path, given: str, what: str) -> None:
    """``path`` does not exist: its nearest existing ancestor must be a writable folder."""
    anchor = _nearest_existing(path.parent)
    if not anchor.is_dir():
        raise UsageError(f"cannot write {what} {given!r}: {str(anchor)!r} is not a folder")
    if not _writable(anchor):
        raise UsageError(f"cannot write {what} {given!r}: folder {str(anchor)!r} is not writable")


def output_file(given: str, what: str = "output file") -> OutputFile:
    """Check that ``given`` can receive a file, before any work; raises :class:`UsageError`.

    Guarantees: ``-`` is standard output; an existing device, pipe or socket
    (also behind a symbolic link) is written in place; a folder is refused; a
    regular file (existing or not) must be replaceable, i.e. its folder (or
    the nearest existing ancestor, for folders still to be made) is writable.
    """
    if given == STDOUT:
        return OutputFile(given, None, False)
    if not given.strip():
        raise UsageError(f"empty path for the {what}")
    path = Path(given)
    try:
        st = path.stat()  # follows symbolic links
    except FileNotFoundError:
        if path.is_symlink():  # a dangling link: write where it points, keep the link
            path = Path(os.path.realpath(path))
        _check_creatable(path, given, what)
        return OutputFile(given, path, False)
    except OSError as exc:
        raise UsageError(f"cannot write {what} {given!r}: {exc.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise UsageError(f"cannot write {what} {given!r}: it is a folder")
    if _special(st):
        if not os.access(path, os.W_OK):
            raise UsageError(f"cannot write {what} {given!r}: permission denied")
        return OutputFile(given, path, True)
    real = Path(os.path.realpath(path))
    if not _writable(real.parent):
        raise UsageError(
            f"cannot write {what} {given!r}: folder {str(real.parent)!r} is not writable"
        )
    return OutputFile(given, real, False)


def output_dir(given: str, what: str = "output folder") -> Path:
    """Check that ``given`` is (or can be made) a writable folder; raises :class:`UsageError`."""
    if given == STDOUT:
        raise UsageError(f"the {what} must be a folder, not standard output ('-')")
    path = Path(given)
    if path.exists():
        if not path.is_dir():
            raise UsageError(f"cannot write into {what} {given!r}: it is not a folder")
        if not _writable(path):
            raise UsageError(f"cannot write into {what} {given!r}: permission denied")
        return path
    _check_creatable(path / "x", given, what)
    return path


def atomic_write_bytes(path: Path, data: bytes, *, given: str | None = None) -> None:
    """Replace the regular file ``path`` by ``data`` atomically (temporary file, fsync, rename).

    The temporary file lives in the same folder (created if missing) and is
    removed if anything fails; readers see the old file or the new one. An
    existing file's permission bits are kept. OS errors become a one-line
    :class:`UsageError` naming ``given`` (or the path).
    """
    name = given if given is not None else str(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o7777 if path.exists() else None
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"cannot write {name!r}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise UsageError(f"cannot write {name!r}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_dir(path.parent)


def atomic_write_text(path: Path, text: str) -> None:
    """:func:`atomic_write_bytes` for UTF-8 text."""
    atomic_write_bytes(path, text.encode("utf-8"))


def write_text(given: str, text: str, what: str = "output file") -> None:
    """Check ``given`` with :func:`output_file` and write ``text`` there."""
    output_file(given, what).write_text(text)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _sync_dir(folder: Path) -> None:
    # Makes the rename itself durable; some file systems refuse fsync on folders.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
