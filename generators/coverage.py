"""Quote checking and cases/COVERAGE.md.

A case's `quote` must occur in the spec file its `clause` names, compared
after both are stripped of rst/markdown inline markup and their whitespace
folded (`fold`).  COVERAGE.md lists each sentence of sentences.SENTENCES
beside the cases that quote it.  Depends on sentences.py and model.py (for the list of operations).
"""

import os
import re

import model
import sentences

_MARKUP = (
    (re.compile(r"\\ "), ""),                      # rst escaped space: ``0``\ s
    (re.compile(r"``([^`\n]+?)``"), r"\1"),        # rst literal
    (re.compile(r"\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*"), r"\1"),  # strong
    (re.compile(r"\*(?=\S)([^*\n]+?)(?<=\S)\*"), r"\1"),      # emphasis; "* " is a bullet
    (re.compile(r"`([^`\n]+?)`"), r"\1"),          # markdown code
)


def fold(text):
    """`text` without inline markup, every run of whitespace one space."""
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    return " ".join(text.split())


# Contract cases (contract.py) quote the ABI header: a path from the
# repository's top, read without its comment markers; layout cases
# (layouts.py) quote reference/DECISIONS.md, D12.
ABI_HEADER = "include/reshape_candidate.h"
DECISIONS = "reference/DECISIONS.md"
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_COMMENT = re.compile(r"^\s*(?:/\*+|\*+/|\*(?!\S))\s?")


def uncomment(text):
    """C source `text` with each line's leading comment marker removed."""
    return "\n".join(_COMMENT.sub("", line) for line in text.splitlines())


class SpecTexts:
    """The folded spec files of one folder, read once each."""

    def __init__(self, folder):
        self.folder = folder
        self._folded = {}

    def folded(self, name):
        """The folded text of spec file `name`; OSError if it cannot be read."""
        if name not in self._folded and name == ABI_HEADER:
            with open(os.path.join(_ROOT, name), encoding="utf-8") as f:
                self._folded[name] = fold(uncomment(f.read()))
        elif name not in self._folded and name == DECISIONS:
            with open(os.path.join(_ROOT, name), encoding="utf-8") as f:
                self._folded[name] = fold(f.read())
        elif name not in self._folded:
            with open(os.path.join(self.folder, name), encoding="utf-8") as f:
                self._folded[name] = fold(f.read())
        return self._folded[name]

    def quote_problem(self, clause, quote):
        """Why `quote` is not found in the file `clause` names, or None."""
        name = clause.split(",", 1)[0].strip()
        if name not in sentences.SPEC_FILES + (ABI_HEADER, DECISIONS):
            return "unknown spec file '%s' in clause" % name
        if fold(quote) not in self.folded(name):
            return "quote not found in '%s': '%s'" % (name, quote)
        return None


def check(cases, texts):
    """Problems with `cases` as (id, message) pairs, empty when all is well.

    Each case's quote must be in its clause's file (`quote_problem`), and
    each sentence of sentences.SENTENCES must be some case's quote with a
    clause naming the sentence's file.
    """
    problems = []
    for case in cases:
        problem = texts.quote_problem(case["clause"], case["quote"])
        if problem:
            problems.append((case["id"], problem))
    quoted = _quoted(cases)
    for name in sentences.SPEC_FILES:
        for key, _section, text in sentences.SENTENCES[name]:
            problem = texts.quote_problem(name, text)
            if problem:
                problems.append(("sentences.py:%s" % key, problem))
            elif not quoted.get((name, fold(text))):
                problems.append(("sentences.py:%s" % key,
                                 "no case quotes '%s' of '%s'" % (text, name)))
    return problems


def _quoted(cases):
    """{(spec file, folded quote): [ids]} over `cases`, in their order."""
    quoted = {}
    for case in cases:
        name = case["clause"].split(",", 1)[0].strip()
        quoted.setdefault((name, fold(case["quote"])), []).append(case["id"])
    return quoted


def _cell(text):
    return text.replace("|", "\\|")


def render(files, sampling):
    """The text of COVERAGE.md.

    `files` lists (path, cases) for every case file, hand-written and
    generated; `sampling` is a paragraph of Markdown on how the sweep was
    sampled.
    """
    cases = [case for _path, file_cases in files for case in file_cases]
    quoted = _quoted(cases)
    lines = [
        "# Coverage of the spec texts",
        "",
        "Written by `generators/generate.py` (`make generate`); do not edit.",
        "Each normative sentence of each text in `specs/` (the list is",
        "`generators/sentences.py`) beside the cases whose `quote` is that sentence.",
        "`make generate` fails when a sentence has no case or a quote is not in its file.",
        "",
        "## Cases per file and operation",
        "",
        "| file | " + " | ".join(model.OPS) + " | total |",
        "| --- |" + " ---: |" * (len(model.OPS) + 1),
    ]
    for path, file_cases in files + [("all", cases)]:
        counts = [sum(1 for c in file_cases if c["op"] == op) for op in model.OPS]
        lines.append("| %s | %s | %d |" % (path, " | ".join(map(str, counts)),
                                          len(file_cases)))
    lines += [
        "",
        "## How the sweep is sampled",
        "",
        sampling,
        "",
    ]
    for name in sentences.SPEC_FILES:
        lines += ["## %s" % name, "",
                  "| section | sentence | cases | ids |",
                  "| --- | --- | ---: | --- |"]
        for _key, section, text in sentences.SENTENCES[name]:
            ids = quoted.get((name, fold(text)), [])
            shown = ", ".join("`%s`" % i for i in ids[:4])
            if len(ids) > 4:
                shown += ", ... (%d more)" % (len(ids) - 4)
            lines.append("| %s | %s | %d | %s |"
                         % (_cell(section), _cell(text), len(ids), shown))
        lines.append("")
    lines += ["## Sentences not checked, and why", "",
              "| file | section | sentence | why |", "| --- | --- | --- | --- |"]
    for name, section, text, why in sentences.NOT_CHECKED:
        lines.append("| %s | %s | %s | %s |"
                     % (name, _cell(section), _cell(text), _cell(why)))
    lines.append("")
    return "\n".join(lines)
