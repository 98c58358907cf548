/*
 * findings_print.c - the terminal's findings summary (findings.h): one
 * line per finding, like pytest's short summary.  Depends on jansson.
 */
#include "findings.h"

#include <string.h>

/* Prints the strings of `a` comma-separated, at most `max` of them and
 * "+N" for the rest. */
static void print_list(FILE *out, json_t *a, size_t max)
{
    size_t n = json_array_size(a);
    for (size_t i = 0; i < n && i < max; i++)
        fprintf(out, "%s%s", i ? "," : "", json_string_value(json_array_get(a, i)));
    if (n > max)
        fprintf(out, ",+%zu", n - max);
}

static const char *s(json_t *o, const char *k)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v ? v : "";
}

/* The op name without its "_reshape_1"-like tail: "openvino",
 * "onednn_static", "onnx". */
static void print_ops(FILE *out, json_t *ops)
{
    size_t n = json_array_size(ops);
    for (size_t i = 0; i < n; i++) {
        const char *op = json_string_value(json_array_get(ops, i));
        const char *cut = strstr(op, "_reshape_");
        fprintf(out, "%s%.*s", i ? "," : "", cut ? (int)(cut - op) : (int)strlen(op), op);
    }
}

/* The command that reruns exactly the example of finding `f`: the
 * report's candidate and options that change verdicts. */
static void print_rerun(FILE *out, json_t *report, json_t *ex)
{
    json_t *o = json_object_get(report, "options");
    fprintf(out, "    clause %s; rerun: reshape-conform --candidate %s --cases %s --filter %s/%s",
            s(ex, "clause"), s(json_object_get(report, "candidate"), "path"), s(ex, "file"),
            s(ex, "id"), s(ex, "variant"));
    if (json_is_true(json_object_get(o, "strict_errors")))
        fprintf(out, " --strict-errors");
    json_int_t seed = json_integer_value(json_object_get(o, "seed"));
    json_int_t timeout = json_integer_value(json_object_get(o, "timeout_ms"));
    if (seed != 1)
        fprintf(out, " --seed %lld", (long long)seed);
    if (timeout && timeout != 10000)
        fprintf(out, " --timeout-ms %lld", (long long)timeout);
    if (json_is_string(json_object_get(o, "sandbox")))
        fprintf(out, " --sandbox %s", s(o, "sandbox"));
    fprintf(out, " --verbose\n");
}

static void print_one(FILE *out, json_t *report, json_t *f, int color)
{
    json_t *ex = json_object_get(f, "example");
    const char *on = color ? "\033[31m" : "", *off = color ? "\033[0m" : "";
    const char *sig = s(f, "signature"), *colon = strchr(sig, ':');
    int vlen = colon ? (int)(colon - sig) : 0;
    long long runs = json_integer_value(json_object_get(f, "runs"));
    long long cases = json_integer_value(json_object_get(f, "cases"));
    fprintf(out, "%s%.*s%s%s -- %lld run%s of %lld case%s; ops ", on, vlen, sig, off,
            sig + vlen, runs, runs == 1 ? "" : "s", cases, cases == 1 ? "" : "s");
    print_ops(out, json_object_get(f, "ops"));
    fprintf(out, "; variants ");
    print_list(out, json_object_get(f, "variants"), 4);
    fprintf(out, "; dtypes ");
    print_list(out, json_object_get(f, "dtypes"), 4);
    fprintf(out, "; e.g. %s/%s: expected %s, got %s", s(ex, "id"), s(ex, "variant"),
            s(ex, "expected"), s(ex, "got"));
    const char *d = s(ex, "detail");
    if (*d && strncmp(d, "returned ", 9) && strncmp(d, "wrong shape", 11))
        fprintf(out, " (%s)", d);
    fputc('\n', out);
    print_rerun(out, report, ex);
}

static int is_known(json_t *f)
{
    return json_integer_value(json_object_get(f, "known_runs")) ==
           json_integer_value(json_object_get(f, "runs"));
}

void findings_print(FILE *out, json_t *report, int max_lines, int color)
{
    json_t *findings = json_object_get(report, "findings");
    size_t n = json_array_size(findings), shown = 0;
    int lines = 0;
    for (int known = 0; known <= 1; known++) {
        int header = 0;
        for (size_t i = 0; i < n; i++) {
            json_t *f = json_array_get(findings, i);
            if (is_known(f) != known)
                continue;
            if (known && !header) {
                if (lines + 3 > max_lines)
                    break;
                fprintf(out, "known failures (failing in the baseline too):\n");
                header = 1;
                lines++;
            }
            if (lines + 2 > max_lines)
                break;
            print_one(out, report, f, color);
            lines += 2;
            shown++;
        }
    }
    if (n > shown)
        fprintf(out, "+%zu more findings (the report lists them all; --verbose prints every run)\n",
                n - shown);
}
