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

void findings_print(FILE *out, json_t *findings, int max_lines, int color)
{
    size_t n = json_array_size(findings);
    for (size_t i = 0; i < n && (int)i < max_lines; i++) {
        json_t *f = json_array_get(findings, i), *ex = json_object_get(f, "example");
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
    }
    if (n > (size_t)max_lines)
        fprintf(out, "+%zu more findings (the report lists them all; --verbose prints every run)\n",
                n - (size_t)max_lines);
}
