"""case_source - finds the YAML text of a case from the file and line a report gives.

Depends on PyYAML (Debian's python3-yaml) and the standard library.  The report
carries each case's `file` and `line`; this module reads that file with a real
YAML parser, finds the item of its `cases` list that covers the line, and
returns that item's source text exactly as written (comments inside it kept).
"""

import os

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Only case files are ever opened, whatever path a report names.
_SUFFIXES = (".yaml", ".yml")


class CaseSource:
    """Recovers case text, parsing each file at most once.

    `roots` are the folders a relative `file` is tried against, in order (the
    harness writes paths relative to the folder it ran in)."""

    def __init__(self, roots):
        self.roots = [r for r in roots if r]
        self._files = {}

    def text(self, case):
        """The YAML of `case` (a report entry with `id`, `file` and `line`,
        line 1-based), dedented so its `- id:` starts at column 0; the
        entry's own `yaml` field when it has one.  The item at `line` is
        taken only when its id is the case's id; otherwise (the file was
        edited since the run) the item with that id anywhere in the file.
        None when the file cannot be found or read, is not YAML, or has no
        case with that id: wrong YAML is worse than none."""
        if isinstance(case.get("yaml"), str):
            return case["yaml"]
        items = self._items(case.get("file", ""))
        line = case.get("line", 0) - 1  # marks count lines from 0
        case_id = case.get("id")
        for first, last, item_id, text in items:
            if first <= line <= last and item_id == case_id:
                return text
        for _, _, item_id, text in items:
            if item_id == case_id:
                return text
        return None

    def _resolve(self, name):
        """The path of the case file `name`: as given when it exists;
        otherwise below each root in turn, for a relative name, or for an
        absolute one its tails from the longest (so /old/checkout/cases/x.yaml
        is found as ROOT/cases/x.yaml in another checkout).  A tail is at
        least a folder and a file name."""
        if not name.endswith(_SUFFIXES):
            return None
        if os.path.isfile(name):
            return name
        parts = [p for p in name.split("/") if p]
        tails = [name] if not os.path.isabs(name) else \
            ["/".join(parts[i:]) for i in range(len(parts) - 1)]
        for tail in tails:
            for root in self.roots:
                path = os.path.join(root, tail)
                if os.path.isfile(path):
                    return path
        return None

    def _items(self, name):
        if name not in self._files:
            self._files[name] = self._parse(self._resolve(name))
        return self._files[name]

    @staticmethod
    def _parse(path):
        """[(first line, last line, id, text)] for each item of the
        top-level `cases` sequence of the file at `path`, lines 0-based, id
        None for an item without a plain `id`; [] when the file cannot be
        read or parsed."""
        if path is None:
            return []
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
            items = _case_items(source)
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            return []
        lines = source.splitlines()
        out = []
        for i, item in enumerate(items):
            first, last, text = _item_text(lines, item, items[i + 1] if i + 1 < len(items) else None)
            out.append((first, last, item.id, text))
        return out


class _Item:
    """Where one item of `cases` starts and ends (yaml marks) and its id."""

    def __init__(self, start_mark, end_mark=None):
        self.start_mark = start_mark
        self.end_mark = end_mark
        self.id = None


class _Frame:
    """An open collection while the events are read: a mapping alternates
    keys and values; `role` is "root", "cases", "item" or None."""

    def __init__(self, is_map, role):
        self.is_map = is_map
        self.role = role
        self.key_next = True
        self.last_key = None


def _child_done(stack, items, event):
    """A whole node (scalar `event`, or a collection when `event` is None)
    ended inside the collection on top of `stack`."""
    if not stack or not stack[-1].is_map:
        return
    top = stack[-1]
    scalar = isinstance(event, yaml.ScalarEvent)
    if top.key_next:
        top.last_key = event.value if scalar else None
    elif top.role == "item" and top.last_key == "id" and scalar:
        items[-1].id = event.value
    top.key_next = not top.key_next


def _case_items(source):
    """The items of the top-level `cases` sequence of YAML `source`, read
    from the parser's events (no node is built: a generated case file
    holds hundreds of thousands of them).  [] when the stream holds more
    than one document, the document is not a mapping or its `cases` is not
    a sequence.  An alias item is its own text, without an id.  Raises
    yaml.YAMLError."""
    items, stack, documents = [], [], 0
    for event in yaml.parse(source, Loader=_Loader):
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                return []   # as yaml.compose, which wants a single document
        if isinstance(event, yaml.CollectionStartEvent):
            is_map = isinstance(event, yaml.MappingStartEvent)
            top = stack[-1] if stack else None
            role = None
            if top is None:
                role = "root" if is_map else None
            elif top.role == "root" and not top.key_next and top.last_key == "cases" \
                    and not is_map:
                role = "cases"
            elif top.role == "cases":
                role = "item"
                items.append(_Item(event.start_mark))
            stack.append(_Frame(is_map, role))
        elif isinstance(event, yaml.CollectionEndEvent):
            if stack.pop().role == "item":
                items[-1].end_mark = event.end_mark
            _child_done(stack, items, None)
        elif isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            if stack and stack[-1].role == "cases":
                items.append(_Item(event.start_mark, event.end_mark))
            _child_done(stack, items, event)
    return items


def _item_text(lines, node, following):
    """The lines of one sequence item, from its `- ` to its last non-blank,
    non-comment line, with the indent of the `- ` removed.  `following` is
    the next item, or None for the last item (each an _Item)."""
    first = node.start_mark.line
    # A block node's end mark is where the next token starts (the next
    # item's "-", or the next line's first character), so it says little
    # about where the item's own text stops; the next item's start does.
    if following is not None and following.start_mark.line > first:
        last = following.start_mark.line - 1
    elif node.end_mark.column > 0 or following is not None:
        last = node.end_mark.line
    else:
        last = node.end_mark.line - 1
    last = max(first, min(last, len(lines) - 1))
    while last > first and (not lines[last].strip() or lines[last].lstrip().startswith("#")):
        last -= 1
    chunk = lines[first:last + 1]
    head = chunk[0]
    dash = head.rfind("-", 0, node.start_mark.column)
    indent = dash if dash >= 0 and not head[:dash].strip() else node.start_mark.column
    out = []
    for text in chunk:
        cut = min(indent, len(text) - len(text.lstrip(" ")))
        out.append(text[cut:])
    return first, last, "\n".join(out)
