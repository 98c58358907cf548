"""charts - geometry of the inline SVG bar chart of verdict counts.

Depends on the standard library only.  The template draws what `bars()`
returns; nothing here knows about HTML.
"""

# One colour per verdict, shared by the chart and the verdict badges.  Verdicts
# that count against conformance are warm or dark, skips are grey-blue.
VERDICT_COLOURS = {
    "PASS": "#2e7d32", "FAIL": "#c62828", "ACCEPTED_INVALID": "#e65100",
    "CRASH": "#4a148c", "TIMEOUT": "#ad1457", "MEMORY_VIOLATION": "#7f0000",
    "LEAK": "#6d4c41", "FLOOD": "#00695c", "NOT_SUPPORTED": "#78909c",
    "WAIVED": "#5c6bc0", "UNEXPECTED_PASS": "#b26a00",
}

LABEL_WIDTH = 170   # px left of the bars, for the verdict names
BAR_SPACE = 330     # px the longest bar may take
COUNT_WIDTH = 70    # px right of the bars, for the counts
ROW_HEIGHT = 22     # px per verdict
BAR_HEIGHT = 14
MIN_BAR = 3         # px: a count of 1 among thousands must still be visible


def bars(verdict_counts):
    """Lays out one horizontal bar per (verdict, count) pair, in the order
    given, on a linear scale where the largest count spans BAR_SPACE pixels.

    Returns (width, height, rows); each row is a dict with `verdict`, `count`,
    `colour`, `y` (top of the row), `bar_y`, `text_y`, `bar_width` (0 for a
    zero count, at least MIN_BAR otherwise) and `count_x`.  All zeros give
    zero-width bars, never a division by zero."""
    largest = max((n for _, n in verdict_counts), default=0)
    rows = []
    for i, (verdict, count) in enumerate(verdict_counts):
        width = 0
        if count > 0:
            width = max(MIN_BAR, round(BAR_SPACE * count / largest))
        y = i * ROW_HEIGHT
        rows.append({
            "verdict": verdict, "count": count,
            "colour": VERDICT_COLOURS.get(verdict, "#555555"),
            "y": y, "bar_y": y + (ROW_HEIGHT - BAR_HEIGHT) // 2,
            "text_y": y + ROW_HEIGHT // 2 + 5,
            "bar_width": width, "count_x": LABEL_WIDTH + width + 6,
        })
    total_width = LABEL_WIDTH + BAR_SPACE + COUNT_WIDTH
    return total_width, ROW_HEIGHT * len(rows), rows


def split_bar(parts, width=300):
    """Lays out (label, count, colour) parts side by side in a bar `width`
    pixels wide, each proportional to its count, except that a non-zero part
    gets at least MIN_BAR pixels (taken from the widest part), so 2
    disagreements among 9,000 agreements still show.  Returns a list of
    dicts with `label`, `count`, `colour`, `x`, `width` for the non-zero
    parts, widths adding up to exactly `width`; [] when every count is 0."""
    total = sum(n for _, n, _ in parts)
    if total <= 0:
        return []
    shown = [(label, n, colour) for label, n, colour in parts if n > 0]
    widths, used, running = [], 0, 0
    for _, count, _ in shown:
        running += count
        end = round(width * running / total)  # carried, so no pixel is lost
        widths.append(end - used)
        used = end
    for i, w in enumerate(widths):
        if w < MIN_BAR:
            widest = max(range(len(widths)), key=lambda k: widths[k])
            widths[widest] -= MIN_BAR - w
            widths[i] = MIN_BAR
    out, x = [], 0
    for (label, count, colour), w in zip(shown, widths):
        out.append({"label": label, "count": count, "colour": colour, "x": x, "width": w})
        x += w
    return out
