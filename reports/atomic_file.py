"""atomic_file.py - files replaced whole or not at all.

write_atomic(path, text) writes a temporary file in the folder of `path`,
flushes it to disk (fsync), renames it over `path` (os.replace, atomic on
POSIX within one file system) and syncs the folder, so a reader, a crash or
a kill sees the old file or the new one, never a part of one.  The
temporary file is removed when anything fails.  Same rule as the harness's
harness/base/atomic_write.c.
"""

import os
import tempfile


def write_atomic(path, text):
    """Writes `text` (str, UTF-8) to `path` atomically; raises OSError.  A
    target that exists and is no regular file itself (a link such as
    /dev/stdout, a pipe) is written in place: renaming over it would replace
    the link or the device."""
    if os.path.lexists(path) and (os.path.islink(path) or not os.path.isfile(path)):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".")
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            fd = -1
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
    finally:
        if fd >= 0:
            os.close(fd)
        if tmp is not None:
            os.unlink(tmp)
    try:
        dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
