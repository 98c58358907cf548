"""template_env.py - the jinja2 environment of every renderer: its templates from a
folder, each compiled once for its text (jinja2's FileSystemBytecodeCache).

Compiling report.html.j2 and report.md.j2 took 0.15 s of the 0.25 s that a render of a
small report costs, and the harness renders on every run with --report-dir, on certify
and on verify.  The cache is jinja2's default folder (_jinja2-cache-UID in the temporary
folder: jinja2 makes it 0700 and refuses one that another user owns or others may
write), keyed by the template's name and a hash of its text, so an edited template is
compiled again.  A cache that cannot be made or written is no cache: the render goes on.
Depends on jinja2 (Debian's python3-jinja2).
"""
import jinja2


class _Cache(jinja2.FileSystemBytecodeCache):
    """A bytecode cache whose failed write (a full or read-only temporary folder) is
    ignored; a failed read is a miss already (jinja2)."""

    def dump_bytecode(self, bucket):
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _cache():
    try:
        return _Cache()
    except (OSError, RuntimeError):   # no folder, or one jinja2 finds unsafe
        return None


def environment(folder, **options):
    """A jinja2.Environment loading templates from `folder`, with the cache above and
    `options` (autoescape, trim_blocks, undefined, ...)."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(folder),
                              bytecode_cache=_cache(), **options)
