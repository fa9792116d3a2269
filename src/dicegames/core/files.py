"""Writing the files dicegames makes (reports, game records, best scores) safely.

A file is written through a temporary file in the same folder that then replaces the
target, so a crash or a full disk mid-write leaves the earlier file whole. That is right
for a regular file and wrong for anything else: renaming onto ``/dev/null`` replaces the
system's device with a regular file, and renaming onto a symbolic link replaces the link.
So :func:`write_bytes` and :func:`write_text` first look at what the path names:

* a regular file, or nothing yet: the atomic replacement (the temporary file is flushed to
  disk before the rename; an existing file keeps its permission bits, and its owner when
  the process may set it);
* a symbolic link: followed to its target, which is then written as above (the link stays
  a link); a dangling link creates its target;
* this process's own standard output or error, by any name (``--out /dev/stdout``,
  ``/dev/fd/2``, or the very file stdout is redirected to): written through that open
  descriptor, so a pipe gets the data, ``>> file`` appends, and output already printed
  stays in order;
* a character device or a FIFO (``/dev/null``, a named pipe): opened and written
  directly, never created, truncated or replaced. A FIFO waits for its reader, like
  ``cat > fifo``;
* a folder: refused with a :class:`TargetError` asking for a file name;
* anything else (a socket, a block device): refused with a :class:`TargetError`.

:func:`check_target` tells the same cases apart without writing, so a command can refuse a
bad ``--out`` before a long run instead of after it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
from pathlib import Path
from typing import Literal

from dicegames.core.errors import DiceGamesError

Target = Literal["file", "new", "stream"]
"""What a path names: an existing regular file, nothing yet, or a device or FIFO."""

_OPEN_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
"""Flags added to every open: not inherited by child programs, and no newline translation."""


class TargetError(DiceGamesError, OSError):
    """A path that dicegames will not write: a folder, a socket, a block device.

    It is an :class:`OSError` too, so code that already turns file problems into a message
    or a fallback (a saved game, the best-scores file) treats it the same way.
    """


def _describe(mode: int) -> str:
    """What a non-writable file type is, in words."""
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def check_target(path: str | os.PathLike[str]) -> Target:
    """What writing ``path`` would do: replace a file, create one, or write to a stream.

    Symbolic links are followed: a link to a file is ``"file"``, a dangling link ``"new"``.
    This process's stdout or stderr, by any name, is a ``"stream"`` whatever it is.

    Raises:
        TargetError: ``path`` is a folder, a socket or a block device.
        OSError: ``path`` cannot be looked at (a symbolic link loop, a file used as a
            folder, no permission).
    """
    if standard_stream(path) is not None:
        return "stream"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "new"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "stream"
    if stat.S_ISDIR(mode):
        raise TargetError(f"{path} is a folder; give a file name")
    raise TargetError(f"{path} is {_describe(mode)}; dicegames writes to a file, a FIFO or "
                      f"a character device such as /dev/stdout")


def write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` as :func:`write_bytes` does; returns where it went."""
    return write_bytes(path, text.encode(encoding))


def write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path``: atomically onto a file, directly into a device or FIFO.

    Returns where the data went: the real file behind any symbolic links, or ``path``
    itself for a standard stream, a device or a FIFO. The folder must exist.

    Raises:
        TargetError: ``path`` is a folder, a socket or a block device (see the module).
        OSError: the file cannot be written (no permission, no such folder, disk full...);
            an existing file is then left as it was.
    """
    descriptor = standard_stream(path)
    if descriptor is not None:
        _write_descriptor(descriptor, data)
        return Path(path)
    kind = check_target(path)
    if kind == "stream":
        written = _write_stream(path, data)
        if written:
            return Path(path)
        kind = "file"  # it became a regular file since it was looked at
    real = os.path.realpath(path)
    if kind == "file" and not _same_file(path, real):
        # A /proc/<pid>/fd link to a file that has no name any more (or another mount
        # namespace's): its folder is unknown, so it can only be written in place.
        _write_in_place(path, data)
        return Path(path)
    _replace(real, data)
    return Path(real)


def standard_stream(path: str | os.PathLike[str]) -> int | None:
    """1 or 2 when ``path`` names the file this process's stdout or stderr writes to."""
    try:
        target = os.stat(path)
    except (OSError, ValueError):
        return None
    for descriptor in (1, 2):
        try:
            stream = os.fstat(descriptor)
        except OSError:
            continue
        if (stream.st_dev, stream.st_ino) == (target.st_dev, target.st_ino):
            return descriptor
    return None


def _write_descriptor(descriptor: int, data: bytes) -> None:
    """Write all of ``data`` to the open ``descriptor``, after what Python buffered for it."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            if stream.fileno() == descriptor:
                stream.flush()
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]


def _same_file(path: str | os.PathLike[str], real: str) -> bool:
    """True when ``real`` (the resolved name) is the file ``path`` opens."""
    try:
        one, other = os.stat(path), os.stat(real)
    except OSError:
        return False
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def _write_stream(path: str | os.PathLike[str], data: bytes) -> bool:
    """Write into the device or FIFO at ``path``; False (nothing written) if it is a file.

    No ``O_CREAT`` and no ``O_TRUNC``: a device or FIFO is never created or emptied, and if
    it was replaced by a regular file meanwhile, that file is left to :func:`_replace`.
    """
    handle = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | _OPEN_FLAGS)
    if stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        return False
    with open(handle, "wb") as stream:
        stream.write(data)
    return True


def _write_in_place(path: str | os.PathLike[str], data: bytes) -> None:
    """Empty and write the existing regular file ``path`` (only when it cannot be renamed)."""
    handle = os.open(path, os.O_WRONLY | os.O_TRUNC | _OPEN_FLAGS)
    with open(handle, "wb") as stream:
        stream.write(data)
        stream.flush()
        os.fsync(stream.fileno())


def _replace(real: str, data: bytes) -> None:
    """Write ``data`` to a new file next to ``real`` and rename it onto ``real``.

    The new file is created with mode 0o666 less the umask, like any new file; when ``real``
    exists its permission bits (and owner, where allowed) carry over.
    """
    folder, name = os.path.split(real)
    try:
        previous: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        previous = None
    handle, temporary = _temporary(folder or ".", name)
    try:
        with open(handle, "wb") as stream:
            if previous is not None:
                _keep_mode(stream.fileno(), previous)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(folder or ".")


def _temporary(folder: str, name: str) -> tuple[int, str]:
    """A new, empty, exclusively created file in ``folder``: its descriptor and path."""
    for _ in range(100):
        temporary = os.path.join(folder, f".{name[:80]}.{secrets.token_hex(4)}.tmp")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _OPEN_FLAGS
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
        except FileNotFoundError:
            raise FileNotFoundError(errno.ENOENT, "no such folder", folder) from None
    raise FileExistsError(errno.EEXIST, "no free temporary name", folder)


def _keep_mode(handle: int, previous: os.stat_result) -> None:
    """Give the new file the permission bits, and if allowed the owner, of the old one."""
    if hasattr(os, "fchown"):
        # Not allowed for another user's file: the writer then owns the new one.
        with contextlib.suppress(OSError):
            os.fchown(handle, previous.st_uid, previous.st_gid)
    if hasattr(os, "fchmod"):
        os.fchmod(handle, stat.S_IMODE(previous.st_mode))


def _sync_folder(folder: str) -> None:
    """Flush the rename to disk (POSIX; elsewhere a folder cannot be opened to sync)."""
    try:
        handle = os.open(folder, os.O_RDONLY | _OPEN_FLAGS)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
