"""
mutants.py - the mutants of one C source file: each is one small change to
the text (an operator, a constant, a negated condition, a removed check or
statement), found on clang's tokens and syntax tree, so that comments and
string literals are never touched.

Depends on: Python 3 and Debian's python3-clang (libclang 14's bindings).
Nothing here builds or runs anything; run.py does.

A mutant is a dict:
  id        "FILE:LINE:COL:KIND:REPLACEMENT", stable while the file's text
            before it does not move (LINE, COL from 1, in bytes)
  file      the source path given
  start,end byte offsets of the replaced text in the file
  old, new  the replaced text and its replacement
  kind      ror (relational), aor (arithmetic, bitwise, shift), lcr
            (&& and ||), asg (compound assignment), uoi (++ and --),
            cst (an integer constant +1 / -1), neg (a condition negated),
            not (a ! removed), del (a statement or a guarding if removed)
  func      the function the change is in ("" at file scope)
The list is sorted by (start, kind, new): the same file gives the same list.
"""
import re

import clang.cindex as ci

# Relational: the boundary shift and the negated relation.
ROR = {"<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="],
       ">=": [">", "<"], "==": ["!="], "!=": ["=="]}
AOR = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["/"],
       "<<": [">>"], ">>": ["<<"], "&": ["|"], "|": ["&"], "^": ["|"]}
LCR = {"&&": ["||"], "||": ["&&"]}
ASG = {"+=": ["-="], "-=": ["+="], "*=": ["/="], "/=": ["*="],
       "|=": ["&="], "&=": ["|="]}
UOI = {"++": ["--"], "--": ["++"]}

# An integer constant token: decimal, hex or octal, with any suffix.
INT_RE = re.compile(r"^(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)$")

# Statements a `del` mutant removes, when they stand as a statement.
DELETABLE = {ci.CursorKind.CALL_EXPR, ci.CursorKind.BINARY_OPERATOR,
             ci.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR,
             ci.CursorKind.UNARY_OPERATOR, ci.CursorKind.IF_STMT,
             ci.CursorKind.CONTINUE_STMT}
STATEMENT_PARENTS = {ci.CursorKind.COMPOUND_STMT, ci.CursorKind.IF_STMT,
                     ci.CursorKind.FOR_STMT, ci.CursorKind.WHILE_STMT}


def parse(path, include_dirs):
    """The translation unit of `path`; raises ValueError on a parse error."""
    args = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE"]
    args += ["-I" + d for d in include_dirs]
    tu = ci.Index.create().parse(path, args=args)
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        raise ValueError("%s: %s" % (path, errors[0].spelling))
    return tu


def _in_file(node, path):
    f = node.location.file
    return f is not None and f.name == path


class _Finder:
    def __init__(self, path, text):
        self.path = path
        self.text = text
        self.found = {}
        # line starts, for LINE:COL ids
        self.line_starts = [0] + [m.end() for m in re.finditer(b"\n", text)]

    def add(self, start, end, new, kind, func):
        old = self.text[start:end].decode()
        if old == new:
            return
        line = _bisect(self.line_starts, start)
        col = start - self.line_starts[line - 1] + 1
        name = self.path.rsplit("/", 1)[-1]
        mid = "%s:%d:%d:%s:%s" % (name, line, col, kind, new.strip() or "-")
        if len(new) > 12:
            mid = "%s:%d:%d:%s" % (name, line, col, kind)
        self.found.setdefault(mid, {
            "id": mid, "file": self.path, "start": start, "end": end,
            "old": old, "new": new, "kind": kind, "func": func})

    def operator_token(self, node, lhs, rhs, spellings):
        """The operator token of a binary node between its operands."""
        lo, hi = lhs.extent.end.offset, rhs.extent.start.offset
        if not (_in_file(lhs, self.path) and _in_file(rhs, self.path)):
            return None
        for tok in node.get_tokens():
            off = tok.extent.start.offset
            if lo <= off < hi and tok.kind == ci.TokenKind.PUNCTUATION:
                return tok if tok.spelling in spellings else None
        return None

    def binary(self, node, func, table_kinds):
        kids = list(node.get_children())
        if len(kids) != 2:
            return
        tok = self.operator_token(node, kids[0], kids[1],
                                  set().union(*[t for t, _ in table_kinds]))
        if tok is None:
            return
        for table, kind in table_kinds:
            for new in table.get(tok.spelling, []):
                self.add(tok.extent.start.offset, tok.extent.end.offset,
                         new, kind, func)

    def unary(self, node, func):
        toks = [t for t in node.get_tokens()
                if t.kind == ci.TokenKind.PUNCTUATION]
        if not toks:
            return
        for tok in (toks[0], toks[-1]):
            if tok.spelling in UOI:
                for new in UOI[tok.spelling]:
                    self.add(tok.extent.start.offset, tok.extent.end.offset,
                             new, "uoi", func)
                return
        tok = toks[0]
        if tok.spelling == "!" and tok.extent.start.offset == \
                node.extent.start.offset:
            self.add(tok.extent.start.offset, tok.extent.end.offset, "",
                     "not", func)

    def negate(self, cond, func):
        s, e = cond.extent.start.offset, cond.extent.end.offset
        if _in_file(cond, self.path) and 0 <= s < e:
            self.add(s, e, "!(" + self.text[s:e].decode() + ")", "neg", func)

    def delete(self, node, parent, func):
        if node.kind not in DELETABLE or parent.kind not in STATEMENT_PARENTS:
            return
        kids = list(parent.get_children())
        if parent.kind != ci.CursorKind.COMPOUND_STMT and node == kids[0]:
            return  # the condition or init of an if or loop, not a statement
        if node.kind == ci.CursorKind.BINARY_OPERATOR:
            if self.operator_token(node, *list(node.get_children()),
                                   {"="}) is None:
                return  # only assignments stand as statements
        if node.kind == ci.CursorKind.IF_STMT and \
                len(list(node.get_children())) != 2:
            return  # an if with an else: its branches are mutated instead
        if node.kind == ci.CursorKind.RETURN_STMT and \
                parent.kind == ci.CursorKind.COMPOUND_STMT and \
                node == kids[-1]:
            return  # the last return of a block: removing it rarely compiles
        s, e = node.extent.start.offset, node.extent.end.offset
        if _in_file(node, self.path) and 0 <= s < e:
            # an expression statement keeps its ';'; an if or a return
            # (its extent ends before the ';') becomes an empty statement
            new = "" if node.kind != ci.CursorKind.IF_STMT else ";"
            self.add(s, e, new, "del", func)

    def walk(self, node, parent, func):
        for kid in node.get_children():
            if not _in_file(kid, self.path):
                continue
            f = kid.spelling if kid.kind == ci.CursorKind.FUNCTION_DECL \
                else func
            self.visit(kid, node, f)
            self.walk(kid, kid, f)

    def visit(self, node, parent, func):
        k = node.kind
        if k == ci.CursorKind.BINARY_OPERATOR:
            self.binary(node, func, [(ROR, "ror"), (AOR, "aor"),
                                     (LCR, "lcr")])
        elif k == ci.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR:
            self.binary(node, func, [(ASG, "asg")])
        elif k == ci.CursorKind.UNARY_OPERATOR:
            self.unary(node, func)
        elif k in (ci.CursorKind.IF_STMT, ci.CursorKind.CONDITIONAL_OPERATOR,
                   ci.CursorKind.WHILE_STMT):
            self.negate(next(node.get_children()), func)
        if func:
            self.delete(node, parent, func)


def _bisect(starts, offset):
    lo, hi = 0, len(starts)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid
    return lo + 1


def _constants(finder, tu):
    """cst mutants: every integer constant token, +1 and -1 (0 gives 1),
    including those in macro bodies; never in #include lines."""
    funcs = []
    for c in tu.cursor.get_children():
        if c.kind == ci.CursorKind.FUNCTION_DECL and _in_file(c, finder.path):
            funcs.append((c.extent.start.offset, c.extent.end.offset,
                          c.spelling))
    for tok in tu.get_tokens(extent=tu.cursor.extent):
        if tok.kind != ci.TokenKind.LITERAL or not _in_file(tok, finder.path):
            continue
        m = INT_RE.match(tok.spelling)
        if m is None:
            continue
        digits, suffix = m.groups()
        value = int(digits, 0) if not (len(digits) > 1 and digits[0] == "0"
                                       and digits[1] not in "xX") \
            else int(digits, 8)
        off = tok.extent.start.offset
        func = next((n for s, e, n in funcs if s <= off < e), "")
        for v in sorted({value + 1, value - 1} - {-1}):
            new = (hex(v) if digits.lower().startswith("0x") else str(v))
            finder.add(off, tok.extent.end.offset, new + suffix, "cst", func)


def mutants(path, include_dirs):
    """Every mutant of the C file `path`, in a fixed order (see above)."""
    with open(path, "rb") as f:
        text = f.read()
    tu = parse(path, include_dirs)
    finder = _Finder(path, text)
    finder.walk(tu.cursor, tu.cursor, "")
    _constants(finder, tu)
    return sorted(finder.found.values(),
                  key=lambda m: (m["start"], m["kind"], m["new"]))


def apply(text, m):
    """The bytes of `text` with mutant `m` applied."""
    return text[:m["start"]] + m["new"].encode() + text[m["end"]:]
