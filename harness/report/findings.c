/*
 * findings.c - grouping a report's failing runs into findings
 * (findings.h).  Depends on jansson, job.h and util.h.
 */
#include "findings.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "judge/judge.h"

/* One failing run, its strings borrowed from the report. */
typedef struct frun {
    const char *id, *op, *variant, *verdict, *detail, *dtype, *expected, *got;
    int order;                  /* of the variant: infer first, then dense, ... */
    const char *clause, *file;
    json_int_t line;
    int known;                  /* the gate (gate.h) has it failing in the baseline too */
} frun;

/* One case's primary run, its signature and its runs [first, first + n). */
typedef struct fcase {
    char *signature, *kind;
    const char *scope;          /* NULL for infer or dense */
    int primary, first, n;
} fcase;

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static int counts_against(const char *vd)
{
    for (int v = 0; v < VD_COUNT; v++)
        if (!strcmp(vd, verdict_name((verdict)v)))
            return verdict_counts_against((verdict)v);
    return 0;
}

/* infer, then dense, then the other variants in job.h's order; unknown
 * names last. */
static int variant_order(const char *name)
{
    int v = variant_parse(name);
    if (v == V_INFER)
        return -1;
    return v < 0 ? V_COUNT : v;
}

static int prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* The first word of `s` (letters, digits, '_') as a new string. */
static char *word(const char *s)
{
    size_t n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_')
        n++;
    char *w = xmalloc(n + 1);
    memcpy(w, s, n);
    w[n] = '\0';
    return w;
}

/* `s` without every "error " in it: "any of: error A, error B" reads
 * "any of: A, B". */
static char *without_error_words(const char *s)
{
    strbuf b;
    sb_init(&b);
    while (*s) {
        if (prefix(s, "error ")) {
            s += 6;
            continue;
        }
        sb_addf(&b, "%c", *s++);
    }
    return sb_take(&b);
}

/* `d` with numbers (decimal or 0x hex) as N, bracketed lists as [..], and
 * from the first "; " on (what it printed, which call of many and its
 * bytes) cut away. */
static char *normalized(const char *d)
{
    strbuf b;
    sb_init(&b);
    const char *start = d, *end = strstr(d, "; ");
    if (!end)
        end = d + strlen(d);
    while (d < end) {
        if (*d == '[') {
            const char *close = memchr(d, ']', (size_t)(end - d));
            if (close) {
                sb_addf(&b, "[..]");
                d = close + 1;
                continue;
            }
        }
        if (isdigit((unsigned char)*d) && (d == start || !isalpha((unsigned char)d[-1]))) {
            if (d[0] == '0' && d[1] == 'x')
                d += 2;
            while (d < end && (isxdigit((unsigned char)*d) || *d == '-'))
                d++;
            sb_addf(&b, "N");
            continue;
        }
        /* up to the next '[' or number, at once */
        const char *run = d++;
        while (d < end && *d != '[' && !(isdigit((unsigned char)*d) && !isalpha((unsigned char)d[-1])))
            d++;
        sb_addf(&b, "%.*s", (int)(d - run), run);
    }
    return sb_take(&b);
}

char *findings_kind(const char *verdict, const char *detail, const char *expected)
{
    /* its detail names the expectation's pattern: one finding, whatever
     * the entries' ids */
    if (!strcmp(verdict, "UNEXPECTED_PASS"))
        return xstrdup("passed where an expectation expects a failure");
    if (!strcmp(verdict, "ACCEPTED_INVALID")) {
        char *e = without_error_words(expected);
        char *k = xasprintf("returned OK where %s was expected", e);
        free(e);
        return k;
    }
    if (prefix(detail, "returned error ")) {
        char *got = word(detail + 15), *k = NULL;
        const char *exp = strstr(detail, ", expected ");
        if (exp && prefix(exp + 11, "shape"))
            k = xasprintf("returned %s where a shape was expected", got);
        else if (exp && prefix(exp + 11, "error ")) {
            char *want = word(exp + 17);
            k = xasprintf("returned %s where %s was expected", got, want);
            free(want);
        }
        free(got);
        if (k)
            return k;
    }
    if (prefix(detail, "wrong shape"))
        return xstrdup("wrong shape");
    if (prefix(detail, "element ") && isdigit((unsigned char)detail[8]))
        return xstrdup("bytes differ");
    return normalized(detail);
}

static int cmp_run(const void *a, const void *b)
{
    const frun *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    if (c)
        return c;
    return (x->order > y->order) - (x->order < y->order);
}

static int cmp_case(const void *a, const void *b)
{
    return strcmp(((const fcase *)a)->signature, ((const fcase *)b)->signature);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_variant(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int ox = variant_order(x), oy = variant_order(y);
    return ox != oy ? (ox > oy) - (ox < oy) : strcmp(x, y);
}

/* The distinct strings of v[0..n) (sorted in place with `cmp`) as a JSON
 * array. */
static json_t *distinct(const char **v, int n, int (*cmp)(const void *, const void *))
{
    /* ops, variants and dtypes are few: each string is kept once, in
     * v[0..d), before the sort (a finding of a whole suite's crashes has
     * 22,158 runs, and a variant's order is looked up by name) */
    int d = 0;
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < d && strcmp(v[k], v[i]))
            k++;
        if (k == d)
            v[d++] = v[i];
    }
    qsort(v, (size_t)d, sizeof *v, cmp);
    json_t *a = json_array();
    for (int i = 0; i < d; i++)
        json_array_append_new(a, json_string(v[i]));
    return a;
}

/* The finding of the cases cs[0..n), all of one signature. */
static json_t *finding_json(const frun *runs, const fcase *cs, int n)
{
    int nruns = 0, best = 0, known = 0;
    for (int i = 0; i < n; i++) {
        nruns += cs[i].n;
        for (int r = cs[i].first; r < cs[i].first + cs[i].n; r++)
            known += runs[r].known;
        size_t li = strlen(runs[cs[i].primary].id), lb = strlen(runs[cs[best].primary].id);
        if (li < lb || (li == lb && strcmp(runs[cs[i].primary].id, runs[cs[best].primary].id) < 0))
            best = i;
    }
    const char **ops = xmalloc((size_t)nruns * sizeof *ops);
    const char **vars = xmalloc((size_t)nruns * sizeof *vars);
    const char **dts = xmalloc((size_t)nruns * sizeof *dts);
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int r = cs[i].first; r < cs[i].first + cs[i].n; r++, k++) {
            ops[k] = runs[r].op;
            vars[k] = runs[r].variant;
            dts[k] = runs[r].dtype;
        }
    const frun *ex = &runs[cs[best].primary];
    json_t *f = json_pack(
        "{s:s, s:s, s:s, s:o, s:i, s:i, s:i, s:o, s:o, s:o,"
        " s:{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I}}",
        "signature", cs[0].signature, "verdict", ex->verdict, "kind", cs[0].kind,
        "scope", cs[0].scope ? json_string(cs[0].scope) : json_null(), "runs", nruns,
        "cases", n, "known_runs", known, "ops", distinct(ops, nruns, cmp_str),
        "variants", distinct(vars, nruns, cmp_variant),
        "dtypes", distinct(dts, nruns, cmp_str), "example", "id", ex->id, "variant", ex->variant,
        "expected", ex->expected, "got", ex->got, "detail", ex->detail, "clause", ex->clause,
        "file", ex->file, "line", ex->line);
    free(ops);
    free(vars);
    free(dts);
    return f;
}

static int cmp_finding(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    json_int_t rx = json_integer_value(json_object_get(x, "runs"));
    json_int_t ry = json_integer_value(json_object_get(y, "runs"));
    if (rx != ry)
        return rx > ry ? -1 : 1;
    return strcmp(str(x, "signature"), str(y, "signature"));
}

json_t *findings_build(json_t *cases)
{
    size_t total = json_array_size(cases), i;
    frun *runs = xmalloc((total ? total : 1) * sizeof *runs);
    int nruns = 0;
    json_t *e;
    json_array_foreach(cases, i, e) {
        const char *vd = str(e, "verdict");
        if (!counts_against(vd))
            continue;
        runs[nruns++] = (frun){str(e, "id"), str(e, "op"), str(e, "variant"), vd,
                               str(e, "detail"), str(e, "dtype"), str(e, "expected"),
                               str(e, "got"), variant_order(str(e, "variant")),
                               str(e, "clause"), str(e, "file"),
                               json_integer_value(json_object_get(e, "line")),
                               !strcmp(str(e, "gate"), "known")};
    }
    qsort(runs, (size_t)nruns, sizeof *runs, cmp_run);
    fcase *cs = xmalloc((size_t)(nruns ? nruns : 1) * sizeof *cs);
    int ncs = 0;
    for (int r = 0; r < nruns;) {
        int end = r + 1;
        while (end < nruns && !strcmp(runs[end].id, runs[r].id))
            end++;
        const frun *p = &runs[r];
        fcase *c = &cs[ncs++];
        c->kind = findings_kind(p->verdict, p->detail, p->expected);
        c->scope = p->order <= V_DENSE ? NULL : p->variant;
        c->signature = c->scope ? xasprintf("%s: %s (on %s)", p->verdict, c->kind, c->scope)
                                : xasprintf("%s: %s", p->verdict, c->kind);
        c->primary = c->first = r;
        c->n = end - r;
        r = end;
    }
    qsort(cs, (size_t)ncs, sizeof *cs, cmp_case);
    json_t **fs = xmalloc((size_t)(ncs ? ncs : 1) * sizeof *fs);
    int nf = 0;
    for (int c = 0; c < ncs;) {
        int end = c + 1;
        while (end < ncs && !strcmp(cs[end].signature, cs[c].signature))
            end++;
        fs[nf++] = finding_json(runs, cs + c, end - c);
        c = end;
    }
    qsort(fs, (size_t)nf, sizeof *fs, cmp_finding);
    json_t *out = json_array();
    for (int f = 0; f < nf; f++)
        json_array_append_new(out, fs[f]);
    for (int c = 0; c < ncs; c++) {
        free(cs[c].signature);
        free(cs[c].kind);
    }
    free(fs);
    free(cs);
    free(runs);
    return out;
}
