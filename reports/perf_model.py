"""perf_model - the views of a performance profile (reports/SCHEMA.md,
"Performance profile") that the Markdown and HTML renderers and the
scoreboard share: ratio tables, bandwidth series and the headline.

Depends on the standard library only.
"""

LAYOUTS = ["dense", "in_place", "strided_src", "strided_dst"]
# The layouts with a bandwidth: in place nothing has to move, so a point
# there is a time per call.
BANDWIDTH_LAYOUTS = [layout for layout in LAYOUTS if layout != "in_place"]
WIDTHS = [("u1", 1), ("u4", 4), ("u8", 8), ("f16", 16), ("f32", 32), ("f64", 64)]
HEADLINE_BYTES = 1 << 20


def size_text(n):
    """4096 -> "4 KiB", 1048576 -> "1 MiB"."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d %s" % (n >> shift, unit)
    return "%d B" % n


def ratio_text(point):
    """"0.97x" for a measured point ("0.97x once" when a call was over the
    point's budget and timed once), "41 ns/call" in place, "not supported",
    "cut" (not run), "left out" (not run: the profile's --budget), else its
    status (CRASH, DATA_TYPE...)."""
    once = " once" if "over_budget" in point else ""
    status = point.get("status")
    if status == "OK" and "ratio" in point:
        r = point["ratio"]
        return ("%.0fx" % r if r >= 100 else "%.2fx" % r if r >= 0.1 else "%.3fx" % r) + once
    if status == "OK" and "execute" in point:
        return "%.0f ns/call%s" % (point["execute"]["median_ns"], once)
    if status == "NOT_SUPPORTED":
        return "not supported"
    if status == "CUT":
        return "cut"
    if status == "LEFT_OUT":
        return "left out"
    return status or "?"


def ops(profile):
    return list(profile["config"]["ops"])


def sizes(profile):
    return sorted({p["bytes"] for p in profile["points"]})


def point_index(profile):
    """{(op, dtype, layout, bytes): point}."""
    return {(p["op"], p["dtype"], p["layout"], p["bytes"]): p for p in profile["points"]}


def ratio_table(profile, op):
    """Rows (dtype, layout, [cell text per size]) for one op."""
    index, rows = point_index(profile), []
    for dtype, _ in WIDTHS:
        for layout in LAYOUTS:
            cells = [index.get((op, dtype, layout, n)) for n in sizes(profile)]
            if any(cells):
                rows.append((dtype, layout, [ratio_text(c) if c else "" for c in cells]))
    return rows


def series(profile, op, layout):
    """{dtype: [(bytes, GiB/s)]} of the measured points, and "memcpy": the
    median of memcpy's GiB/s over the widths at each size."""
    out, copies = {}, {}
    for p in profile["points"]:
        if p["op"] != op or p["layout"] != layout or "gib_s" not in p:
            continue
        out.setdefault(p["dtype"], []).append((p["bytes"], p["gib_s"]))
        copies.setdefault(p["bytes"], []).append(p["memcpy_gib_s"])
    for key in out:
        out[key].sort()
    if copies:
        out["memcpy"] = [(n, sorted(v)[len(v) // 2]) for n, v in sorted(copies.items())]
    return out


def baseline(profile):
    """What a ratio compares execute with: "memcpy" in host memory, the
    device's own "copy_on_device" for a candidate with a device."""
    return "copy_on_device" if profile.get("candidate", {}).get("device") else "memcpy"


def headline(profile):
    """One line for the scoreboard, from the first op with a measured f32
    dense point at 1 MiB (or the largest size below it): "dense 1 MiB f32:
    0.97x memcpy; in_place: ...; strided_src: 0.12x; strided_dst: 0.30x;
    infer_shape 25 ns; tiny execute 40 ns"; "" when nothing was measured."""
    index = point_index(profile)
    small = [n for n in sizes(profile) if n <= HEADLINE_BYTES]
    for op in ops(profile):
        for n in reversed(small):
            dense = index.get((op, "f32", "dense", n))
            if not dense or dense.get("status") != "OK":
                continue
            parts = ["%s %s f32: %s %s" % (op, size_text(n), ratio_text(dense), baseline(profile))]
            for layout in LAYOUTS[1:]:
                p = index.get((op, "f32", layout, n))
                if p:
                    parts.append("%s: %s" % (layout, ratio_text(p)))
            for fixed in profile.get("fixed", []):
                if fixed.get("op") != op:
                    continue
                for key, label in (("infer_shape", "infer_shape"), ("tiny_execute", "tiny execute")):
                    f = fixed.get(key, {})
                    if "ns_per_call" in f:
                        parts.append("%s %.0f ns" % (label, f["ns_per_call"]["median_ns"]))
            return "; ".join(parts)
    return ""


def summary_lines(profile):
    """The profile's summary in sentences: what was measured, not supported
    (in no figure) and cut, and the layouts slowest first; [] for a profile
    written before it had one."""
    s = profile.get("summary")
    if not s:
        return []
    lines = ["%d points measured (%d timed once: a call over the point budget of %g s), "
             "%d not supported and %d refused with an error status (in no figure), %d cut, "
             "%d failed."
             % (s["measured"], s["timed_once"], profile["config"].get("point_budget_s", 0),
                s["not_supported"], s["refused"], len(s["cut"]), s["failed"])]
    if s["cut"]:
        lines.append("Cut, not run because by a smaller point of their series a call would take "
                     "longer than the point budget: "
                     + ", ".join(s["cut"]) + ".")
    if s.get("left_out"):
        lines.append("Left out, not run because the profile's --budget of %g s did not afford "
                     "them (an evenly spread subset was measured): %d points: "
                     % (profile["config"].get("budget_s", 0), len(s["left_out"]))
                     + ", ".join(s["left_out"]) + ".")
    parts = []
    for layout in s["layouts"]:
        if "median_ratio" in layout:
            parts.append("%s %.3gx %s (median of %d points; slowest %s, %.3gx)"
                         % (layout["layout"], layout["median_ratio"], baseline(profile),
                            layout["points"],
                            layout["slowest"]["point"], layout["slowest"]["ratio"]))
    ip = s["in_place"]
    if "median_ns_per_call" in ip:
        parts.append("in_place %.0f ns a call (median of %d points; nothing has to move)"
                     % (ip["median_ns_per_call"], ip["points"]))
    if parts:
        lines.append("Slowest layouts first: " + "; ".join(parts) + ".")
    return lines
