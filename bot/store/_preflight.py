"""Start-up checks that read a database file without changing it, and the lock that keeps a
second process off it.

They run before SQLite opens the file for writing: opening switches it to WAL journaling and
leaves ``-wal`` and ``-shm`` files beside it, which a file we are about to refuse must not get.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
from contextlib import closing
from pathlib import Path

from bot.store._migrations import latest_version
from bot.store.errors import DatabaseInUse, DatabaseReadOnly, DatabaseUnusable, SchemaTooNew

_MAGIC = b"SQLite format 3\x00"
_USER_VERSION = slice(60, 64)  # big-endian 32-bit integer in the file header
_READ_ONLY = (errno.EACCES, errno.EPERM, errno.EROFS)


def check_database(path: str | os.PathLike[str]) -> None:
    """Refuse a database this code cannot safely open for writing, leaving it byte-identical.

    Raises ``DatabaseReadOnly`` (the file, or its folder, cannot be written),
    ``DatabaseUnusable`` (not an SQLite file), or ``SchemaTooNew`` (written by newer code).
    A file or folder that does not exist yet passes if it could be created.
    """
    file = Path(path)
    _check_folder(file)
    if not file.exists():
        return
    if not file.is_file():
        raise DatabaseUnusable(file, "it is not a regular file")
    try:
        os.close(os.open(file, os.O_RDWR))
    except OSError as exc:
        if exc.errno in _READ_ONLY:
            raise DatabaseReadOnly(file, "the file is read-only for this user") from None
        raise
    found = schema_version_of(file)
    if found > latest_version():
        raise SchemaTooNew(found, latest_version())


def check_not_in_use(path: str | os.PathLike[str]) -> None:
    """Raise ``DatabaseInUse`` at once if another process holds the database (the store takes
    the lock for good when it opens; this only tells a second bot before it connects)."""
    if Path(path).is_file():
        lock = ProcessLock(path)
        lock.acquire()
        lock.release()


def _check_folder(file: Path) -> None:
    folder = file.absolute().parent
    existing = next(p for p in (folder, *folder.parents) if p.exists())
    if not existing.is_dir():
        raise DatabaseUnusable(file, f"{existing} is not a folder")
    # SQLite keeps its -wal and -shm files beside the database, so the folder must be writable.
    if not os.access(existing, os.W_OK | os.X_OK):
        raise DatabaseReadOnly(file, f"the folder {existing} is read-only for this user")


def schema_version_of(file: Path) -> int:
    """The schema version stored in the file, read without opening it for writing."""
    wal = file.with_name(file.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        # Committed pages may still sit in the WAL: ask SQLite, read-only.
        with closing(sqlite3.connect(f"{file.absolute().as_uri()}?mode=ro", uri=True)) as db:
            return int(db.execute("PRAGMA user_version").fetchone()[0])
    with file.open("rb") as handle:
        header = handle.read(100)
    if not header:
        return 0  # an empty file is a new database
    if not header.startswith(_MAGIC) or len(header) < 100:
        raise DatabaseUnusable(file, "it is not an SQLite database")
    return int.from_bytes(header[_USER_VERSION], "big")


class ProcessLock:
    """An exclusive ``flock`` on the database file, held while the store is open.

    ``flock`` locks are separate from the POSIX locks SQLite takes on the same file, and are
    released by the kernel when the process dies, so a killed bot never leaves the file locked.
    The descriptor is closed only after SQLite's own connections: closing any descriptor of a
    file drops the process's POSIX locks on it.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._path = Path(path)
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock; raises ``DatabaseInUse`` if another process holds it."""
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise DatabaseInUse(self._path) from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def release(self) -> None:
        """Let the file go (closing twice is fine)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
