/*
 * expectations_read.c - the expectations (waiver) file of
 * expectations.h, parsed with libyaml's document API: every problem with
 * its position, and for each entry the byte range it and its comment lines
 * above it take in the file (what --update-expectations cuts).  Depends on
 * libyaml, fnmatch, job.h and base/.
 */
#include "expectations.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct parse_ctx {
    const char *path;
    yaml_document_t *doc;
    strbuf *errs;
    int problems;
} parse_ctx;

static void problem(parse_ctx *p, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void problem(parse_ctx *p, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    sb_addf(p->errs, "%s:%d:%d: ", p->path, (int)n->start_mark.line + 1,
            (int)n->start_mark.column + 1);
    va_start(ap, fmt);
    sb_vaddf(p->errs, fmt, ap);
    va_end(ap);
    sb_addf(p->errs, "\n");
    p->problems++;
}

static const char *scalar(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

/* A plain empty, "~" or "null" scalar: YAML's null. */
static int is_null(const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    const char *s = scalar(n);
    return !*s || !strcmp(s, "~") || !strcmp(s, "null");
}

static int any_variant_matches(const char *glob)
{
    for (int v = 0; v < V_COUNT; v++)
        if (fnmatch(glob, variant_name((variant)v), 0) == 0)
            return 1;
    return 0;
}

/* The verdict named `s` if it counts against conformance, EXPECT_ANY_VERDICT
 * for "any", else -2. */
static int parse_verdict(const char *s)
{
    if (!strcmp(s, "any"))
        return EXPECT_ANY_VERDICT;
    for (int v = 0; v < VD_COUNT; v++)
        if (!strcmp(s, verdict_name((verdict)v)) && verdict_counts_against((verdict)v) &&
            v != VD_UNEXPECTED_PASS)
            return v;
    return -2;
}

/* Byte offset of the start of the line holding `at`. */
static size_t line_start(const char *text, size_t at)
{
    while (at > 0 && text[at - 1] != '\n')
        at--;
    return at;
}

/* Moves `start` (a line start) up over the comment lines directly above. */
static size_t take_comments_above(const char *text, size_t start)
{
    while (start > 0) {
        size_t prev = line_start(text, start - 1);
        const char *p = text + prev;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '#')
            break;
        start = prev;
    }
    return start;
}

/* The end of the entry's last line: past the newline after the last scalar
 * of mapping `m` (a block scalar already ends at a line start). */
static size_t entry_end(parse_ctx *p, const char *text, size_t len, const yaml_node_t *m)
{
    size_t end = m->start_mark.index;
    for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
        const yaml_node_t *k = yaml_document_get_node(p->doc, pr->key),
                          *v = yaml_document_get_node(p->doc, pr->value);
        end = k->end_mark.index > end ? k->end_mark.index : end;
        end = v->end_mark.index > end ? v->end_mark.index : end;
    }
    if (end > 0 && end <= len && text[end - 1] == '\n')
        return end;
    while (end < len && text[end] != '\n')
        end++;
    return end < len ? end + 1 : len;
}

static const char *const entry_keys[] = {"id", "verdict", "reason", "tracker"};
enum { K_ID, K_VERDICT, K_REASON, K_TRACKER, K_COUNT };

/* Reads one list item into *e; returns 0 when it has a problem. */
static int read_entry(parse_ctx *p, const yaml_node_t *m, expectation *e)
{
    if (m->type != YAML_MAPPING_NODE) {
        problem(p, m, "an expectation must be a mapping with 'id', 'verdict' and 'reason'");
        return 0;
    }
    yaml_node_t *val[K_COUNT] = {NULL};
    int ok = 1;
    for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = yaml_document_get_node(p->doc, pr->key),
                    *v = yaml_document_get_node(p->doc, pr->value);
        int i = 0;
        if (k->type == YAML_SCALAR_NODE)
            while (i < K_COUNT && strcmp(scalar(k), entry_keys[i]))
                i++;
        if (k->type != YAML_SCALAR_NODE || i == K_COUNT) {
            problem(p, k, "unknown key '%s' in an expectation (id, verdict, reason, tracker)",
                    k->type == YAML_SCALAR_NODE ? scalar(k) : "?");
            ok = 0;
        } else if (val[i]) {
            problem(p, k, "key '%s' appears twice in an expectation", entry_keys[i]);
            ok = 0;
        } else if (v->type != YAML_SCALAR_NODE) {
            problem(p, v, "'%s' must be a string", entry_keys[i]);
            ok = 0;
        } else {
            val[i] = v;
        }
    }
    static const char *const required[] = {"id", "verdict", "reason"};
    for (int i = 0; i < K_TRACKER; i++)
        if (!val[i] && ok) {
            problem(p, m, "missing required key '%s' in an expectation", required[i]);
            ok = 0;
        }
    if (!ok)
        return 0;

    const char *id = scalar(val[K_ID]);
    const char *slash = strrchr(id, '/');
    if (!*id || (slash && (slash == id || !slash[1]))) {
        problem(p, val[K_ID], "'id' must be ID_GLOB or ID_GLOB/VARIANT, not '%s'", id);
        return 0;
    }
    if (slash && !any_variant_matches(slash + 1)) {
        problem(p, val[K_ID], "variant '%s' in '%s' matches no variant", slash + 1, id);
        return 0;
    }
    int vd = parse_verdict(scalar(val[K_VERDICT]));
    if (vd == -2) {
        problem(p, val[K_VERDICT],
                "'verdict' must be one that counts against conformance (FAIL, ACCEPTED_INVALID, "
                "CRASH, TIMEOUT, MEMORY_VIOLATION, LEAK, FLOOD) or any, not '%s'",
                scalar(val[K_VERDICT]));
        return 0;
    }
    const char *reason = scalar(val[K_REASON]);
    if (strspn(reason, " \t\n") == strlen(reason)) {
        problem(p, val[K_REASON], "'reason' must say why the case is expected to fail");
        return 0;
    }
    const char *tracker = val[K_TRACKER] ? scalar(val[K_TRACKER]) : NULL;
    if (tracker) {
        const char *sep = strstr(tracker, "://");
        if (!sep || sep == tracker || !sep[3] || strpbrk(tracker, " \t\n")) {
            problem(p, val[K_TRACKER], "'tracker' must be a URL, not '%s'", tracker);
            return 0;
        }
    }
    memset(e, 0, sizeof *e);
    e->pattern = xstrdup(id);
    e->id_glob = slash ? xasprintf("%.*s", (int)(slash - id), id) : xstrdup(id);
    e->variant_glob = slash ? xstrdup(slash + 1) : NULL;
    e->verdict = vd;
    e->reason = xstrdup(reason);
    e->tracker = tracker ? xstrdup(tracker) : NULL;
    e->line = (int)m->start_mark.line + 1;
    e->column = (int)m->start_mark.column + 1;
    return 1;
}

static void read_list(parse_ctx *p, expectations *x, const yaml_node_t *list)
{
    if (is_null(list))
        return;
    if (list->type != YAML_SEQUENCE_NODE) {
        problem(p, list, "'expectations' must be a list of entries");
        return;
    }
    x->block = list->data.sequence.style != YAML_FLOW_SEQUENCE_STYLE;
    size_t prev_end = 0;
    for (yaml_node_item_t *it = list->data.sequence.items.start;
         it < list->data.sequence.items.top; it++) {
        yaml_node_t *m = yaml_document_get_node(p->doc, *it);
        expectation e;
        if (!read_entry(p, m, &e))
            continue;
        e.cut_start = take_comments_above(x->text, line_start(x->text, m->start_mark.index));
        e.cut_end = entry_end(p, x->text, x->len, m);
        if (e.cut_start < prev_end)
            x->block = 0;   /* two entries share a line: no clean cut */
        prev_end = e.cut_end;
        x->v = xrealloc(x->v, (size_t)(x->n + 1) * sizeof *x->v);
        x->v[x->n++] = e;
    }
}

int expectations_parse(expectations *x, const char *path, const char *text, size_t len,
                       strbuf *errs)
{
    memset(x, 0, sizeof *x);
    x->path = xstrdup(path);
    x->text = xmalloc(len + 1);
    memcpy(x->text, text, len);
    x->text[len] = '\0';
    x->len = len;
    yaml_parser_t parser;
    yaml_document_t doc;
    parse_ctx p = {path, &doc, errs, 0};
    if (!yaml_parser_initialize(&parser))
        die(EXIT_HARNESS, "cannot initialize libyaml");
    yaml_parser_set_input_string(&parser, (const unsigned char *)x->text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        yaml_mark_t m = parser.problem ? parser.problem_mark : parser.context_mark;
        if (parser.error == YAML_READER_ERROR)
            m.line = m.column = 0;
        sb_addf(errs, "%s:%d:%d: invalid yaml: %s%s%s\n", path, (int)m.line + 1,
                (int)m.column + 1, parser.problem ? parser.problem : "unknown problem",
                parser.context ? " " : "", parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        return 1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        sb_addf(errs, "%s:1:1: empty expectations file: no 'expectations' list\n", path);
        p.problems++;
    } else if (root->type != YAML_MAPPING_NODE) {
        problem(&p, root, "an expectations file must be a mapping with one key, 'expectations'");
    } else {
        yaml_node_t *list = NULL;
        for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
             pr < root->data.mapping.pairs.top; pr++) {
            yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
            if (k->type == YAML_SCALAR_NODE && !strcmp(scalar(k), "expectations") && !list)
                list = yaml_document_get_node(&doc, pr->value);
            else
                problem(&p, k, "unknown key '%s' in an expectations file (only 'expectations')",
                        k->type == YAML_SCALAR_NODE ? scalar(k) : "?");
        }
        if (!list)
            problem(&p, root, "missing required key 'expectations'");
        else
            read_list(&p, x, list);
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return p.problems;
}

int expectations_load(expectations *x, const char *path, strbuf *errs)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        sb_addf(errs, "%s: cannot read expectations: %s\n", path, strerror(errno));
        memset(x, 0, sizeof *x);
        return 1;
    }
    int n = expectations_parse(x, path, text, len, errs);
    free(text);
    return n;
}

void expectations_free(expectations *x)
{
    for (int i = 0; i < x->n; i++) {
        free(x->v[i].pattern);
        free(x->v[i].id_glob);
        free(x->v[i].variant_glob);
        free(x->v[i].reason);
        free(x->v[i].tracker);
    }
    free(x->v);
    free(x->exact);
    free(x->globbed);
    free(x->path);
    free(x->text);
    memset(x, 0, sizeof *x);
}
