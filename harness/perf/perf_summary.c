/*
 * perf_summary.c - what a performance profile measured, in a few lines
 * (perf.h, reports/SCHEMA.md "Performance profile"): the points measured,
 * timed once (over budget), not supported, refused, cut and failed, and
 * per layout the
 * median of the measured ratios, slowest layout first, with its slowest
 * point; in place the median time per call.  A point that is not
 * supported, cut or failed is in no figure.  Depends on perf.h, util.h,
 * jansson.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "perf.h"

/* The points cut that the terminal names; the profile has them all. */
#define PERF_CUT_SHOWN 8

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static double execute_ns(json_t *p)
{
    return json_number_value(json_object_get(json_object_get(p, "execute"), "median_ns"));
}

/* The point's name: "u1 strided_src 1 GiB (openvino_reshape_1)". */
static char *point_name(json_t *p)
{
    long long b = (long long)json_integer_value(json_object_get(p, "bytes"));
    const char *unit = b >= 1 << 30 ? "GiB" : b >= 1 << 20 ? "MiB" : "KiB";
    long long div = b >= 1 << 30 ? 1 << 30 : b >= 1 << 20 ? 1 << 20 : 1 << 10;
    return xasprintf("%s %s %lld %s (%s)", str(p, "dtype"), str(p, "layout"), b / div, unit,
                     str(p, "op"));
}

char *perf_point_text(json_t *p)
{
    const char *status = str(p, "status");
    json_t *ratio = json_object_get(p, "ratio");
    const char *once = json_object_get(p, "over_budget") ? " (timed once: over budget)" : "";
    const char *base = json_object_get(p, "baseline") ? str(p, "baseline") : "memcpy";
    if (!strcmp(status, "OK") && ratio)
        return xasprintf("%.3gx %s%s", json_number_value(ratio), base, once);
    if (!strcmp(status, "OK"))
        return xasprintf("%.0f ns a call (in place: nothing to move)%s", execute_ns(p), once);
    if (!strcmp(status, "NOT_SUPPORTED"))
        return xstrdup("not supported");
    if (!strcmp(status, "CUT"))
        return xasprintf("cut: %s", str(p, "detail"));
    if (!strcmp(status, "LEFT_OUT"))
        return xstrdup("left out: the profile's --budget does not afford it");
    return xstrdup(status);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The figures of one layout, or of in place (`in_place`: times, not ratios). */
static json_t *layout_json(json_t *points, const char *layout, int in_place)
{
    size_t i, n = 0;
    json_t *p, *slowest = NULL;
    double *v = xmalloc((json_array_size(points) + 1) * sizeof *v);
    json_array_foreach(points, i, p) {
        if (strcmp(str(p, "layout"), layout) || strcmp(str(p, "status"), "OK"))
            continue;
        double x = in_place ? execute_ns(p) : json_number_value(json_object_get(p, "ratio"));
        if (!(x > 0))
            continue;
        v[n++] = x;
        double s = slowest ? (in_place ? execute_ns(slowest)
                                       : json_number_value(json_object_get(slowest, "ratio")))
                           : 0;
        if (!slowest || (in_place ? x > s : x < s))
            slowest = p;
    }
    json_t *o = json_pack("{s:s, s:I}", "layout", layout, "points", (json_int_t)n);
    if (n) {
        qsort(v, n, sizeof *v, cmp_double);
        char *name = point_name(slowest);
        json_object_set_new(o, in_place ? "median_ns_per_call" : "median_ratio",
                            json_real(n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2));
        json_object_set_new(o, "slowest", json_pack("{s:s, s:f}", "point", name,
                                                    in_place ? "ns_per_call" : "ratio",
                                                    in_place ? execute_ns(slowest)
                                                             : json_number_value(json_object_get(
                                                                   slowest, "ratio"))));
        free(name);
    }
    free(v);
    return o;
}

static int cmp_median(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    double gx = json_number_value(json_object_get(x, "median_ratio"));
    double gy = json_number_value(json_object_get(y, "median_ratio"));
    return (gx > gy) - (gx < gy);
}

json_t *perf_summarize(json_t *points)
{
    long measured = 0, once = 0, unsupported = 0, refused = 0, failed = 0;
    json_t *cut = json_array(), *left_out = json_array();
    const char *base = "memcpy";    /* a device's points: "copy_on_device" */
    size_t i;
    json_t *p;
    json_array_foreach(points, i, p) {
        const char *s = str(p, "status");
        if (json_object_get(p, "baseline"))
            base = str(p, "baseline");
        if (!strcmp(s, "OK")) {
            measured++;
            once += json_object_get(p, "over_budget") != NULL;
        } else if (!strcmp(s, "NOT_SUPPORTED")) {
            unsupported++;
        } else if (!strcmp(s, "CUT") || !strcmp(s, "LEFT_OUT")) {
            char *name = point_name(p);
            json_array_append_new(!strcmp(s, "CUT") ? cut : left_out, json_string(name));
            free(name);
        } else if (!strcmp(s, "CRASH") || !strcmp(s, "TIMEOUT") || !strcmp(s, "WRONG_BYTES") ||
                   !strcmp(s, "NO_MEMORY")) {
            failed++;
        } else {
            refused++;      /* an error status: u1 under oneDNN is DATA_TYPE */
        }
    }
    /* the layouts that move bytes, slowest first; a layout with no measured
     * point last */
    json_t *ratios[PERF_LAYOUT_COUNT];
    int nr = 0, none = 0;
    for (int l = 0; l < PERF_LAYOUT_COUNT; l++)
        if (l != PERF_IN_PLACE)
            ratios[nr++] = layout_json(points, perf_layout_name((perf_layout)l), 0);
    for (int k = 0; k < nr; k++)
        none += json_object_get(ratios[k], "median_ratio") == NULL;
    qsort(ratios, (size_t)nr, sizeof *ratios, cmp_median);
    json_t *layouts = json_array();
    for (int k = 0; k < nr; k++)
        json_array_append_new(layouts, ratios[(k + none) % nr]);
    return json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "baseline", base,
                     "measured", (json_int_t)measured,
                     "timed_once", (json_int_t)once, "not_supported", (json_int_t)unsupported,
                     "refused", (json_int_t)refused, "failed", (json_int_t)failed, "cut", cut,
                     "left_out", left_out, "layouts", layouts, "in_place",
                     layout_json(points, perf_layout_name(PERF_IN_PLACE), 1));
}

/* The names of `list` (at most PERF_CUT_SHOWN, then how many more, in the
 * summary's `key`), then a new line. */
static void print_names(FILE *f, json_t *list, const char *key)
{
    long n = (long)json_array_size(list);
    for (long k = 0; k < n && k < PERF_CUT_SHOWN; k++)
        fprintf(f, "%s %s", k ? "," : "", json_string_value(json_array_get(list, (size_t)k)));
    if (n > PERF_CUT_SHOWN)
        fprintf(f, " and %ld more (the profile's summary.%s)", n - PERF_CUT_SHOWN, key);
    fprintf(f, "\n");
}

void perf_summary_print(FILE *f, json_t *s)
{
    long cut = (long)json_array_size(json_object_get(s, "cut"));
    long left_out = (long)json_array_size(json_object_get(s, "left_out"));
    fprintf(f, "perf: %lld points measured (%lld timed once: a call over the point budget), "
               "%lld not supported and %lld refused with an error status (in no figure), "
               "%ld cut, %lld failed\n",
            (long long)json_integer_value(json_object_get(s, "measured")),
            (long long)json_integer_value(json_object_get(s, "timed_once")),
            (long long)json_integer_value(json_object_get(s, "not_supported")),
            (long long)json_integer_value(json_object_get(s, "refused")), cut,
            (long long)json_integer_value(json_object_get(s, "failed")));
    if (cut) {
        fprintf(f, "perf: cut (not run: by a smaller point of their series, a call would take "
                   "longer than the point budget):");
        print_names(f, json_object_get(s, "cut"), "cut");
    }
    if (left_out) {
        fprintf(f, "perf: %ld points left out (not run: the profile's --budget does not afford "
                   "them; an evenly spread subset was measured):", left_out);
        print_names(f, json_object_get(s, "left_out"), "left_out");
    }
    const char *base = json_object_get(s, "baseline") ? str(s, "baseline") : "memcpy";
    fprintf(f, "perf: slowest layouts first (median of execute's bandwidth over %s's):", base);
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(s, "layouts"), i, l) {
        json_t *m = json_object_get(l, "median_ratio");
        if (m)
            fprintf(f, "%s %s %.3gx over %lld points, slowest %s %.3gx", i ? ";" : "",
                    str(l, "layout"), json_number_value(m),
                    (long long)json_integer_value(json_object_get(l, "points")),
                    str(json_object_get(l, "slowest"), "point"),
                    json_number_value(json_object_get(json_object_get(l, "slowest"), "ratio")));
        else
            fprintf(f, "%s %s: nothing measured", i ? ";" : "", str(l, "layout"));
    }
    json_t *ip = json_object_get(s, "in_place");
    if (json_object_get(ip, "median_ns_per_call"))
        fprintf(f, "; in_place %.0f ns a call (median over %lld points; nothing has to move)",
                json_number_value(json_object_get(ip, "median_ns_per_call")),
                (long long)json_integer_value(json_object_get(ip, "points")));
    fprintf(f, "\n");
}
