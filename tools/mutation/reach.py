"""
reach.py - whether the equivalence probe executed a mutant's changed code:
the probe's build of a mutant gets a counter beside the mutated statement,
which the probe reads (probe.c: the exported `mut_hit` pointer it sets to
memory its children share).  A survivor whose changed statement no call of
the probe began is "not probed", never "equivalent" (report.py).

Depends on: Python 3 and Debian's python3-clang (mutants.py parses).

Where the counter goes, for a mutant inside a function: before the
innermost statement that holds the changed text and stands in a block (or
after the label of a `case`, `default` or named label), so it counts each
time that statement begins (for a condition of an `if` or a loop: each time
the `if` or loop is reached; for a removed statement: each time it would
have run).  A non-block body of an if, else or loop that is a simple
statement gets braces, so the counter counts that branch alone.  A mutant
at file scope (a static initializer, an array size, a macro's body) is in
effect from the moment the unit is loaded: no counter, "file scope".
"""
import clang.cindex as ci

import mutants as mut

# One line before the unit: the counter pointer the probe sets, exported
# from the hidden-visibility build, and #line so that diagnostics and
# sanitizer reports keep the file's own line numbers.
PRELUDE = ("__attribute__((visibility(\"default\"))) unsigned long *mut_hit; "
           "static inline void mut_hit_once(void) { if (mut_hit) "
           "__atomic_fetch_add(mut_hit, 1, __ATOMIC_RELAXED); }\n"
           "#line 1 \"%s\"\n")
HIT = "mut_hit_once(); "

LABELS = {ci.CursorKind.CASE_STMT, ci.CursorKind.DEFAULT_STMT,
          ci.CursorKind.LABEL_STMT}
BODIES = {ci.CursorKind.IF_STMT, ci.CursorKind.FOR_STMT,
          ci.CursorKind.WHILE_STMT, ci.CursorKind.DO_STMT}
SIMPLE = {ci.CursorKind.RETURN_STMT, ci.CursorKind.CALL_EXPR,
          ci.CursorKind.BINARY_OPERATOR, ci.CursorKind.UNARY_OPERATOR,
          ci.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR,
          ci.CursorKind.BREAK_STMT, ci.CursorKind.CONTINUE_STMT}

_units = {}


def _path_to(node, start, end, path):
    """The chain of nodes from `node` down to the innermost one whose extent
    holds [start, end)."""
    path.append(node)
    for kid in node.get_children():
        s, e = kid.extent.start.offset, kid.extent.end.offset
        if kid.extent.start.file is None or \
                kid.extent.start.file.name != node.translation_unit.spelling:
            continue
        if s <= start and end <= e and s < e:
            return _path_to(kid, start, end, path)
    return path


def _semicolon_after(text, at):
    """The offset just past the ';' that ends a simple statement whose
    extent ends at `at`, or None."""
    i = at
    while i < len(text) and text[i:i + 1] in b" \t\n":
        i += 1
    return i + 1 if text[i:i + 1] == b";" else None


def _is_body(parent, node, kids):
    """Whether `node` is a branch of if `parent` or the body of loop
    `parent` (not its condition, init or increment)."""
    if parent.kind == ci.CursorKind.IF_STMT:
        return node in kids[1:]
    if parent.kind == ci.CursorKind.DO_STMT:
        return node == kids[0]
    return parent.kind in BODIES and node == kids[-1]


def _insertions(text, tu, m):
    """[(offset, text)] that put the counter beside mutant `m`; None at file
    scope."""
    path = _path_to(tu.cursor, m["start"], max(m["end"], m["start"] + 1), [])
    func = next((i for i, n in enumerate(path)
                 if n.kind == ci.CursorKind.FUNCTION_DECL), None)
    if func is None:
        return None
    for i in range(len(path) - 1, func, -1):
        node, parent = path[i], path[i - 1]
        start = node.extent.start.offset
        if parent.kind == ci.CursorKind.COMPOUND_STMT and \
                node.kind not in LABELS:
            return [(start, HIT)]
        kids = list(parent.get_children())
        if parent.kind in LABELS and node == kids[-1]:
            return [(start, HIT)]
        if _is_body(parent, node, kids) and node.kind in SIMPLE:
            end = _semicolon_after(text, node.extent.end.offset)
            if end is not None:
                return [(start, "{ " + HIT), (end, " }")]
    return None


def instrument(text, m, path):
    """The bytes of mutant `m` of the unit `text` (read from `path`) with
    the counter beside its change, and where it counts ("statement" or
    "file scope")."""
    tu = _units.get(path)
    if tu is None:
        tu = _units[path] = mut.parse(path, ["include", "reference"])
    ins = _insertions(text, tu, m)
    name = path.rsplit("/", 1)[-1]
    edits = [(m["start"], m["end"], m["new"].encode())]
    if ins is None:  # no counter, and no `mut_hit` for the probe to find
        return text[:m["start"]] + m["new"].encode() + text[m["end"]:], \
            "file scope"
    edits += [(at, at, s.encode()) for at, s in ins]
    out = text
    # from the end, so that earlier offsets stay valid; at the change's
    # start the change is made first and the counter put before it
    for s, e, new in sorted(edits, key=lambda x: (x[0], x[1] > x[0]),
                            reverse=True):
        out = out[:s] + new + out[e:]
    return (PRELUDE % name).encode() + out, "statement"
