/*
 * perf.h - the performance profile of a candidate (`reshape-conform perf`,
 * `certify --perf`): how fast `execute` copies, beside memcpy of the same
 * bytes timed in the same process, and what `infer_shape` and a tiny
 * `execute` cost.
 *
 * A plan is a list of points, each one (operation, element width, layout,
 * payload size).  The points are measured in a worker process of their
 * own (`reshape-conform __perf`, perf_worker.c), never in the harness, and
 * every figure is timed inside that worker, so no IPC is in it.  The
 * parent (cmd_perf.c) reads one JSON line per point, and when the worker
 * dies or passes its deadline (SIGKILL, never a signal it could ignore)
 * records the point as CRASH or TIMEOUT and starts a new worker at the
 * next point.  The JSON document is described in reports/SCHEMA.md
 * ("Performance profile").  Depends on the ABI header, jansson.
 */
#ifndef HARNESS_PERF_H
#define HARNESS_PERF_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "reshape_candidate.h"
#include "engine/engine.h"

/* The layouts a point is timed in, as the harness's variants name them. */
typedef enum perf_layout {
    PERF_DENSE,         /* dense src into a separate dense dst */
    PERF_IN_PLACE,      /* dst->data == src->data */
    PERF_STRIDED_SRC,   /* src rows padded by one element, dst dense */
    PERF_STRIDED_DST,   /* src dense, dst rows padded by one element */
    PERF_LAYOUT_COUNT
} perf_layout;

/* What a plan covers: every op in `ops` (bit 1 << op), element widths
 * 1, 4, 8, 16, 32 and 64 bits, every layout, and payload sizes from 4 KiB
 * up to `max_bytes` by factors of 16 (4 KiB, 64 KiB, 1 MiB, 16 MiB,
 * 256 MiB) and 1 GiB, each at most `max_bytes`. */
typedef struct perf_config {
    unsigned ops;
    uint64_t max_bytes;
    double point_seconds;   /* time budget to reach a small spread, per point */
    double point_budget_s;  /* a call slower than this is timed once, and the
                               larger sizes of its series are cut (not run) */
    double budget_s;        /* the whole profile's time (perf_budget); 0: none */
} perf_config;

/* The default of budget_s for `reshape-conform perf`: two minutes. */
#define PERF_BUDGET_S 120.0

/* The default of point_budget_s: a profile of a slow candidate finishes. */
#define PERF_POINT_BUDGET_S 2.0
/* A point whose whole time (setting it up and checking it, with the calls)
 * would be over this many budgets is cut as well. */
#define PERF_POINT_FACTOR 10

typedef struct perf_point {
    reshape_op op;
    reshape_dtype dtype;    /* u1, u4, u8, f16, f32 or f64 for the width */
    perf_layout layout;
    uint64_t bytes;         /* dense payload size */
} perf_point;

/* 1 GiB, or a quarter of the memory available now when that is less (a
 * point maps about four payloads at once). */
uint64_t perf_default_max_bytes(void);

/* "4096", "64K", "16M", "1G" (powers of 1024) into *out: 0, or -1 when
 * `s` is not one. */
int perf_parse_size(const char *s, uint64_t *out);

/* Number of points of `c`, and point `i` (0 <= i < perf_plan_count). */
int perf_plan_count(const perf_config *c);
void perf_plan_point(const perf_config *c, int i, perf_point *p);

/*
 * What a profile with a budget can afford (perf_budget.c).  The first
 * PERF_BUDGET_SAMPLE points a worker is to measure (a series: every size
 * of one op, width and layout) are measured whatever they cost, so that
 * the cost of a point is known; from then on a point is measured when the
 * time left, less `reserve_s` for the fixed costs, affords the points
 * left at the mean cost so far, else an evenly spread share of them: point
 * i when frac((i + 1) * 0.618...) (a golden-ratio sequence, which no
 * period of the plan's order aliases) is under the share the time left
 * affords.  Past the deadline none is.  Times are now_s() seconds.
 */
typedef struct perf_budget {
    double deadline_s;      /* now_s() when the budget is spent; 0: none */
    double reserve_s;       /* kept for the fixed costs */
    double spent_s;         /* in the points measured */
    int measured;           /* points measured */
} perf_budget;

/* Points measured whatever they cost first: up to a series. */
#define PERF_BUDGET_SAMPLE 6

/* 1 when point `i` is to be measured at `now_s`, with `left` points of
 * the plan left counting it; else 0 (perf_left_out_point).  Pure. */
int perf_budget_pick(const perf_budget *b, int i, int left, double now_s);

/* Point measured: it took `seconds`. */
void perf_budget_spent(perf_budget *b, double seconds);

/* The object of point `p`, not run ("status": "LEFT_OUT") as the whole
 * profile's budget of `budget_s` seconds (--budget) does not afford it. */
json_t *perf_left_out_point(const perf_point *p, double budget_s);

/* "dense", "in_place", "strided_src", "strided_dst". */
const char *perf_layout_name(perf_layout l);

/*
 * Measures point `p` of candidate `t` in this process and returns its
 * JSON object: the point itself, "status" ("NOT_SUPPORTED" when supports()
 * declines the point's op, dtype and layout: not timed; else the status
 * name of the first execute; "WRONG_BYTES" when execute returned OK but
 * dst does not hold the payload; "NO_MEMORY" when the buffers cannot be
 * had), and for "OK": "execute", the median_ns and spread (interquartile
 * range over median) of one execute, and rounds; then, but in place
 * (where nothing has to move, so only the time per call says anything),
 * the same for memcpy of `bytes` bytes measured in alternate rounds,
 * gib_s, memcpy_gib_s, and ratio = memcpy time / execute time (1.0: as
 * fast as memcpy; 0.5: half its bandwidth).  When the first execute took
 * longer than `budget_s`, that call is the figure (rounds 1) and
 * "over_budget" says so.
 */
json_t *perf_measure_point(const reshape_candidate *t, const perf_point *p,
                           double point_seconds, double budget_s);

/* The object of point `p`, not run ("status": "CUT") because the smaller
 * point `last` of its series was over `budget_s` (`last_ns` infinite), or
 * took `last_ns` a call (or in all, when `whole`), so that `p` would take
 * about `guess_ns`, over `budget_s`. */
json_t *perf_cut_point(const perf_point *p, const perf_point *last, double last_ns,
                       double guess_ns, double budget_s, int whole);

/*
 * The "summary" of a profile's points[] (reports/SCHEMA.md): how many were
 * measured, timed once, not supported, cut and left out for the budget
 * (and which), and per layout
 * the geometric mean of the measured ratios (in place: the median time per
 * call), slowest layout first; NOT_SUPPORTED, cut and failed points are in
 * no figure.  New reference.
 */
json_t *perf_summarize(json_t *points);

/* The summary's lines, for the terminal. */
void perf_summary_print(FILE *f, json_t *summary);

/* What point object `p` says in a few words: "0.97x memcpy", "41 ns a
 * call" (in place), "not supported", "cut", a status.  New string. */
char *perf_point_text(json_t *p);

/* infer_shape's latency in ns per call (median over rounds, with spread)
 * on a 1 MiB f32 request of `op`, and the cost of execute on a 1-element
 * f32 tensor: {"infer_shape": {...}, "tiny_execute": {...}}. */
json_t *perf_measure_fixed(const reshape_candidate *t, reshape_op op);

/*
 * For a candidate with a device (perf_device.c): point `p` with src and
 * dst in the device's memory, staged and checked through its hooks, and
 * execute then synchronize timed beside the device's own copy_on_device
 * of the same bytes ("baseline": "copy_on_device"); the same fields as
 * perf_measure_point, and status NO_DEVICE_COPY (not timed) without
 * copy_on_device, DEVICE_ERROR with a "detail" when a hook fails.
 */
json_t *perf_device_point(const reshape_candidate *t, const perf_point *p, double point_seconds);

/* tiny_execute of perf_measure_fixed on the device: one f32 element in
 * device memory, execute then synchronize ({status, ns_per_call}).
 * perf_measure_fixed leaves it out for such a candidate. */
json_t *perf_device_tiny(const reshape_candidate *t, reshape_op op);

/* `reshape-conform __perf CANDIDATE OPS MAX_BYTES POINT_SECONDS BUDGET_S
 * FIRST PROFILE_BUDGET_S DEADLINE_S [POLICY WORD...]`: the worker (not a
 * user command).  Writes on fd 3 one JSON line per point from FIRST on
 * ({"index": i, ...}; once a point of a series is over budget, the
 * series' larger points are cut; a point the profile's budget does not
 * afford, perf_budget_pick, is LEFT_OUT), then one line
 * {"fixed": {...}} for each op of the plan, then exits 0. */
int cmd_perf_worker(int argc, char **argv);

/*
 * Runs the whole plan against `candidate` in workers and returns the
 * profile document (reports/SCHEMA.md), or NULL with *err set when the
 * candidate cannot be loaded at all.  `timeout_s` bounds each point;
 * c->budget_s (when not 0) the whole profile, from here on (perf_budget).
 * Progress goes to stderr unless `quiet`.  The workers are confined by
 * `sb` (sandbox.h) and watched, as a run's are; a point whose worker the
 * sandbox stopped is CRASH saying what the candidate tried; `seen` (when
 * not NULL) receives what the observer saw.
 */
json_t *perf_profile(const char *candidate, const perf_config *c, double timeout_s,
                     int quiet, const sandbox_policy *sb, sandbox_summary *seen, char **err);

#endif
