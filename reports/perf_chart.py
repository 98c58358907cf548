"""perf_chart - geometry of the inline SVG bandwidth-vs-size charts of a
performance profile: log2 sizes across, GiB/s up, one polyline a series.

Depends on the standard library only; the template draws what `chart()`
returns.
"""

import math

WIDTH, HEIGHT = 460, 220
LEFT, BOTTOM, TOP, RIGHT = 48, 28, 10, 80
COLOURS = {"u1": "#8e24aa", "u4": "#3949ab", "u8": "#00897b", "f16": "#7cb342",
           "f32": "#f4511e", "f64": "#6d4c41", "memcpy": "#212121"}


def chart(series, size_label):
    """Lays out `series` ({name: [(bytes, gib_s)]}).  Returns a dict with
    width, height, the plot box, x ticks (x, label), y ticks (y, label) and
    lines (name, colour, dashed, points "x,y x,y ...", label_y).  An empty
    series gives a chart with no lines, never a division by zero."""
    xs = sorted({n for pts in series.values() for n, _ in pts}) or [4096]
    top = max((v for pts in series.values() for _, v in pts), default=1.0) or 1.0
    top = 2 ** math.ceil(math.log2(top)) if top > 0 else 1.0
    lo, hi = math.log2(xs[0]), math.log2(xs[-1])
    span = (hi - lo) or 1.0
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(n):
        return LEFT + (math.log2(n) - lo) / span * plot_w

    def y_of(v):
        return TOP + plot_h - min(v, top) / top * plot_h

    lines = []
    for name, pts in series.items():
        if not pts:
            continue
        coords = " ".join("%.1f,%.1f" % (x_of(n), y_of(v)) for n, v in pts)
        lines.append({"name": name, "colour": COLOURS.get(name, "#555"),
                      "dashed": name == "memcpy", "points": coords,
                      "label_y": y_of(pts[-1][1]) + 4})
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "top": TOP,
            "plot_w": plot_w, "plot_h": plot_h, "label_x": LEFT + plot_w + 6,
            "x_ticks": [(x_of(n), size_label(n)) for n in xs],
            "y_ticks": [(y_of(top * k / 4), "%.3g" % (top * k / 4)) for k in range(5)],
            "lines": lines}
