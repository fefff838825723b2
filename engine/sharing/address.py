"""Where the holder of a database file listens: a Unix socket named by the file's real path, in a directory
only this user may enter, so only this user's processes can reach it."""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile


class UnsafeSocketDirectory(OSError):
    """The socket directory is not this user's alone; sharing through it is refused."""


def socket_directory() -> str:
    """`$XDG_RUNTIME_DIR/cookbook` or `<tmp>/cookbook-<uid>`, created 0700; refused when another user owns it
    or may write in it."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    directory = os.path.join(runtime, "cookbook") if runtime else os.path.join(tempfile.gettempdir(),
                                                                              f"cookbook-{os.getuid()}")
    os.makedirs(directory, mode=0o700, exist_ok=True)
    status = os.lstat(directory)
    if (not stat.S_ISDIR(status.st_mode) or status.st_uid != os.getuid()
            or status.st_mode & (stat.S_IRWXG | stat.S_IRWXO)):
        raise UnsafeSocketDirectory(f"{directory} is not a directory that only this user may use")
    return directory


def socket_path(database: str) -> str:
    """The socket of the database file `database` (any path to it: the real path names it)."""
    digest = hashlib.sha256(os.path.realpath(database).encode()).hexdigest()[:32]
    return os.path.join(socket_directory(), f"{digest}.sock")
