/*
 * case_load.c - one YAML case file into validated cases (cases/FORMAT.md),
 * with libyaml's document API: the file (its documents, `cases:`) and one
 * case (required keys, id, op, clause against the spec files, tags,
 * abuse; input, shape, expect, dst and in_place in case_data.c,
 * case_shape.c, case_expect.c, case_layout.c).  Every problem is reported
 * with the position of the node at fault (from 1) and the case is left
 * out; loading goes on.  Depends on
 * libyaml and case_read.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <yaml.h>

#include "base/base.h"
#include "case_read.h"

/* The spec files a clause may cite (specs/). */
static const char *const spec_files[] = {
    "openvino_reshape_1.rst", "openvino_reshape_1_short.md",
    "onednn_static_reshape_1.md", "onednn_static_reshape_1_table.rst",
    "onednn_dynamic_reshape_1.md", "onnx_reshape_14.md",
    "include/reshape_candidate.h",      /* the ABI: contract cases (`abuse`) */
    "reference/DECISIONS.md",           /* our readings: layout cases (D12) */
};

/*
 * Doubles the case array.  Its new half is mapped in one call rather than
 * a page fault per page (4 KiB a case, and faults are slow under some
 * hypervisors).
 */
static void grow_cases(case_set *s)
{
    size_t old = (size_t)s->ncases * sizeof *s->cases;
    size_t want = (size_t)(s->ncases ? 2 * s->ncases : 1) * sizeof *s->cases;
    s->cases = xrealloc(s->cases, want);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)s->cases + old + page - 1) / page * page;
    uintptr_t hi = ((uintptr_t)s->cases + want) / page * page;
    if (hi > lo + 16 * page)
        madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
}

/* A contract case's `abuse` (abuse.h), and what it needs of the case. */
static void read_abuse(ctx *x, const yaml_node_t *n, rcase *c)
{
    if (!case_want_scalar(x, n, "abuse", "an abuse name"))
        return;
    int a = abuse_parse(case_scalar(n));
    if (a < 0) {
        case_problem(x, n, "unknown abuse '%s' (one of %s)", case_scalar(n), abuse_names());
        return;
    }
    unsigned f = abuse_flags((case_abuse)a);
    int two = c->rank >= 1 && c->dims[0] >= 2 && c->dims[c->rank - 1] >= 2 && c->volume >= 2 &&
              c->volume != UINT64_MAX;
    if (f & ABUSE_NEEDS_TWO_2D)
        two = two && c->rank >= 2 && c->dims[1] >= 2;
    if (!(f & ABUSE_ON_EXECUTE) && !c->infer_only)
        case_problem(x, n, "abuse '%s' is made by infer_shape only: the case needs infer_only: true",
                case_scalar(n));
    else if (!(f & ABUSE_ON_INFER) && c->infer_only)
        case_problem(x, n, "abuse '%s' is made by execute only: the case cannot be infer_only",
                case_scalar(n));
    else if ((f & ABUSE_NEEDS_RANK) && c->rank < 1)
        case_problem(x, n, "abuse '%s' changes index 0: the input needs a rank of at least 1",
                case_scalar(n));
    else if ((f & ABUSE_NEEDS_RANK_2) && (c->rank != 2 || c->nvalues != 2))
        case_problem(x, n, "abuse '%s' needs an input of rank 2 and a shape of 2 values", case_scalar(n));
    else if ((f & ABUSE_NEEDS_FOUR) &&
             (c->rank < 1 || c->dims[0] < 4 || c->volume == 0 || c->volume == UINT64_MAX))
        case_problem(x, n, "abuse '%s' needs an input whose first dim is >= 4, no dim 0",
                case_scalar(n));
    else if ((f & ABUSE_NEEDS_ELEMENTS) && (c->volume == 0 || c->volume == UINT64_MAX))
        case_problem(x, n, "abuse '%s' needs an input of at least one element, no dim 0",
                case_scalar(n));
    else if ((f & ABUSE_NEEDS_SCALAR) && (c->rank != 0 || c->nvalues != 0))
        case_problem(x, n, "abuse '%s' needs an input of rank 0 and a shape of no values",
                case_scalar(n));
    else if ((f & ABUSE_NEEDS_TWO) && !two)
        case_problem(x, n, "abuse '%s' needs an input with its first%s and last dims >= 2, no dim 0", case_scalar(n),
                (f & ABUSE_NEEDS_TWO_2D) ? ", second" : "");
    else
        c->abuse = (case_abuse)a;
}

enum { K_ID, K_OP, K_CLAUSE, K_QUOTE, K_TAGS, K_INPUT, K_SHAPE, K_SPECIAL_ZERO,
       K_INFER_ONLY, K_EXPECT, K_GENERATED, K_ABUSE, K_DST, K_IN_PLACE, K_COUNT };

static void read_case(ctx *x, const yaml_node_t *n, int file_generated)
{
    static const char *const keys[K_COUNT] = {
        "id", "op", "clause", "quote", "tags", "input", "shape", "special_zero",
        "infer_only", "expect", "generated", "abuse", "dst", "in_place"};
    yaml_node_t *v[K_COUNT];
    rcase c;
    memset(&c, 0, sizeof c);
    c.file = x->path;
    c.line = (int)n->start_mark.line + 1;
    c.column = (int)n->start_mark.column + 1;
    c.generated = file_generated;
    x->bad = 0;
    if (!case_read_mapping(x, n, "a case", keys, K_COUNT, v))
        return;
    const char *what = "a case";
    if (case_require(x, n, v[K_ID], "id", what) && case_get_string(x, v[K_ID], "id", &c.id) &&
        !case_is_word(c.id, CASE_ID_MAX))
        case_problem(x, v[K_ID], "id '%s' must be 1 to %d characters of a-z, 0-9 and _", c.id,
                CASE_ID_MAX);
    if (case_require(x, n, v[K_OP], "op", what) && case_want_scalar(x, v[K_OP], "op", "an op name")) {
        for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
            if (!strcmp(case_scalar(v[K_OP]), reshape_op_name((reshape_op)op)))
                c.op = (reshape_op)op;
        if (!c.op)
            case_problem(x, v[K_OP], "unknown op '%s'", case_scalar(v[K_OP]));
    }
    if (case_require(x, n, v[K_CLAUSE], "clause", what) &&
        case_get_string(x, v[K_CLAUSE], "clause", &c.clause)) {
        size_t i, nspec = sizeof spec_files / sizeof *spec_files;
        for (i = 0; i < nspec; i++) {
            size_t len = strlen(spec_files[i]);
            if (!strncmp(c.clause, spec_files[i], len) &&
                (c.clause[len] == '\0' || c.clause[len] == ','))
                break;
        }
        if (i == nspec)
            case_problem(x, v[K_CLAUSE], "clause '%s' does not start with a spec file name", c.clause);
    }
    if (case_require(x, n, v[K_QUOTE], "quote", what))
        case_get_string(x, v[K_QUOTE], "quote", &c.quote);
    if (v[K_TAGS]) {
        yaml_node_t *t = v[K_TAGS];
        if (t->type != YAML_SEQUENCE_NODE) {
            case_problem(x, t, "'tags' must be a list, not %s", case_kind_name(t));
        } else {
            long count = t->data.sequence.items.top - t->data.sequence.items.start;
            c.tags = xcalloc((size_t)count + 1, sizeof *c.tags);
            for (long i = 0; i < count; i++) {
                yaml_node_t *e = case_node_at(x, t->data.sequence.items.start[i]);
                char *tag;
                if (!case_get_string(x, e, "tags", &tag))
                    continue;
                c.tags[c.ntags++] = tag;
                if (!case_is_word(tag, CASE_ID_MAX))
                    case_problem(x, e, "tag '%s' must be a-z, 0-9 and _", tag);
            }
        }
    }
    if (case_require(x, n, v[K_INPUT], "input", what))
        case_read_input(x, v[K_INPUT], &c);
    if (case_require(x, n, v[K_SHAPE], "shape", what))
        case_read_shape(x, v[K_SHAPE], &c);
    if (case_require(x, n, v[K_SPECIAL_ZERO], "special_zero", what))
        case_get_bool(x, v[K_SPECIAL_ZERO], "special_zero", &c.special_zero);
    if (v[K_INFER_ONLY])
        case_get_bool(x, v[K_INFER_ONLY], "infer_only", &c.infer_only);
    if (v[K_GENERATED])
        case_get_bool(x, v[K_GENERATED], "generated", &c.generated);
    if (v[K_ABUSE] && !x->bad)
        read_abuse(x, v[K_ABUSE], &c);
    /* the expectation is read last: it is checked against the input */
    if (case_require(x, n, v[K_EXPECT], "expect", what) && !x->bad)
        case_read_expect(x, v[K_EXPECT], &c);
    /* the layout last: what it allows depends on the expectation */
    if (!x->bad)
        case_read_layout(x, n, v[K_DST], v[K_IN_PLACE], &c);
    if (x->bad) {
        free(c.id);
        free(c.clause);
        free(c.quote);
        for (int i = 0; i < c.ntags; i++)
            free(c.tags[i]);
        free(c.tags);
        free(c.data.bytes);
        for (int i = 0; i < c.noutcomes; i++)
            free(c.outcomes[i].data.bytes);
        free(c.note);
        return;
    }
    case_set *s = x->set;
    if ((s->ncases & (s->ncases - 1)) == 0 && s->ncases >= 0)
        grow_cases(s);
    s->cases[s->ncases++] = c;
}

void case_load_text(case_set *set, const char *path, const char *text, size_t len)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    ctx x = {set, path, &doc, 0};
    path = x.path;
    if (!yaml_parser_initialize(&parser))
        die(EXIT_HARNESS, "cannot initialize libyaml");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        yaml_mark_t mk = parser.problem ? parser.problem_mark : parser.context_mark;
        const yaml_mark_t *m = &mk;
        if (parser.error == YAML_READER_ERROR) {
            /* the reader (encoding, bad UTF-8) gives a byte offset, no mark */
            mk.line = mk.column = 0;
            for (size_t k = 0; k < parser.problem_offset && k < len; k++) {
                if (text[k] == '\n') {
                    mk.line++;
                    mk.column = 0;
                } else if (((unsigned char)text[k] & 0xC0) != 0x80) {
                    mk.column++;
                }
            }
        }
        case_set_error(set, path, (int)m->line + 1, (int)m->column + 1, "invalid yaml: %s%s%s",
                       parser.problem ? parser.problem : "unknown problem",
                       parser.context ? " " : "", parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        return;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        case_set_error(set, path, 1, 1, "empty case file: no 'cases'");
    } else {
        static const char *const keys[] = {"generated", "cases"};
        yaml_node_t *v[2];
        if (case_read_mapping(&x, root, "the file", keys, 2, v)) {
            int generated = 0;
            if (v[0])
                case_get_bool(&x, v[0], "generated", &generated);
            if (case_require(&x, root, v[1], "cases", "the file")) {
                if (v[1]->type != YAML_SEQUENCE_NODE) {
                    case_problem(&x, v[1], "'cases' must be a list, not %s", case_kind_name(v[1]));
                } else {
                    for (yaml_node_item_t *it = v[1]->data.sequence.items.start;
                         it < v[1]->data.sequence.items.top; it++)
                        read_case(&x, case_node_at(&x, *it), generated);
                }
            }
        }
        /* a second document would be silently ignored: refuse it */
        yaml_document_t extra;
        if (yaml_parser_load(&parser, &extra)) {
            yaml_node_t *r = yaml_document_get_root_node(&extra);
            if (r)
                case_set_error(set, path, (int)r->start_mark.line + 1,
                               (int)r->start_mark.column + 1,
                               "more than one yaml document in a case file");
            yaml_document_delete(&extra);
        }
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
}
