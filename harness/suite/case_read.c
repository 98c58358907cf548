/*
 * case_read.c - the typed node readers of the case loader (case_read.h):
 * a problem at a node, scalars (string, bool, integer, integer in a range,
 * dtype, a word), mappings (known keys, no repeats, required keys), dims
 * and their volume, hex bytes.  Depends on libyaml, case.h and fill.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/base.h"
#include "case_read.h"

void case_problem(ctx *x, const yaml_node_t *node, const char *fmt, ...)
{
    strbuf b;
    va_list ap;
    sb_init(&b);
    va_start(ap, fmt);
    sb_vaddf(&b, fmt, ap);
    va_end(ap);
    case_set_error(x->set, x->path, (int)node->start_mark.line + 1,
                   (int)node->start_mark.column + 1, "%s", b.s);
    free(b.s);
    x->bad = 1;
}

yaml_node_t *case_node_at(ctx *x, int index)
{
    return yaml_document_get_node(x->doc, index);
}

const char *case_scalar(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

const char *case_kind_name(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE: return "a scalar";
    case YAML_SEQUENCE_NODE: return "a list";
    case YAML_MAPPING_NODE: return "a mapping";
    default: return "nothing";
    }
}

int case_want_scalar(ctx *x, const yaml_node_t *n, const char *field, const char *what)
{
    if (n->type != YAML_SCALAR_NODE) {
        case_problem(x, n, "'%s' must be %s, not %s", field, what, case_kind_name(n));
        return 0;
    }
    return 1;
}

int case_get_string(ctx *x, const yaml_node_t *n, const char *field, char **out)
{
    if (!case_want_scalar(x, n, field, "a string"))
        return 0;
    *out = xstrdup(case_scalar(n));
    return 1;
}

int case_get_bool(ctx *x, const yaml_node_t *n, const char *field, int *out)
{
    if (!case_want_scalar(x, n, field, "true or false"))
        return 0;
    const char *s = case_scalar(n);
    if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
        if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) {
            *out = 1;
            return 1;
        }
        if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) {
            *out = 0;
            return 1;
        }
    }
    case_problem(x, n, "'%s' must be true or false, not '%s'", field, s);
    return 0;
}

/*
 * Reads a plain decimal integer (an optional '-', then digits with no
 * leading zero) into *neg and *mag, its sign and magnitude.  Quoted
 * scalars, hex, octal, underscores and floats are refused: FORMAT.md wants
 * plain YAML integers, and YAML 1.1 would read "010" as octal.
 */
int case_get_integer(ctx *x, const yaml_node_t *n, const char *field, int *neg, uint64_t *mag)
{
    if (!case_want_scalar(x, n, field, "an integer"))
        return 0;
    const char *s = case_scalar(n), *p = s;
    if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
        case_problem(x, n, "'%s' must be a plain integer, not the string '%s'", field, s);
        return 0;
    }
    *neg = (*p == '-');
    if (*p == '-' || *p == '+')
        p++;
    if (!*p || strspn(p, "0123456789") != strlen(p)) {
        case_problem(x, n, "'%s' must be an integer, not '%s'", field, s);
        return 0;
    }
    if (p[0] == '0' && p[1]) {
        case_problem(x, n, "integer '%s' has a leading zero", s);
        return 0;
    }
    errno = 0;
    unsigned long long v = strtoull(p, NULL, 10);
    if (errno == ERANGE) {
        case_problem(x, n, "integer '%s' is out of range", s);
        return 0;
    }
    *mag = v;
    if (*neg && v == 0)
        *neg = 0;
    return 1;
}

/* A signed integer in [lo, hi]. */
int case_get_int_in(ctx *x, const yaml_node_t *n, const char *field, int64_t lo,
                           int64_t hi, int64_t *out)
{
    int neg;
    uint64_t mag;
    if (!case_get_integer(x, n, field, &neg, &mag))
        return 0;
    if ((!neg && mag > (uint64_t)INT64_MAX) || (neg && mag > (uint64_t)INT64_MAX + 1)) {
        case_problem(x, n, "integer '%s' is out of range", case_scalar(n));
        return 0;
    }
    int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    if (v < lo || v > hi) {
        case_problem(x, n, "'%s' must be between %" PRId64 " and %" PRId64 ", not %s", field,
                lo, hi, case_scalar(n));
        return 0;
    }
    *out = v;
    return 1;
}

int case_get_dtype(ctx *x, const yaml_node_t *n, const char *field, reshape_dtype *out)
{
    if (!case_want_scalar(x, n, field, "a dtype name"))
        return 0;
    for (int d = 1; d <= RESHAPE_DT_COUNT; d++)
        if (!strcmp(case_scalar(n), reshape_dtype_name((reshape_dtype)d))) {
            *out = (reshape_dtype)d;
            return 1;
        }
    case_problem(x, n, "unknown dtype '%s'", case_scalar(n));
    return 0;
}

int case_is_word(const char *s, size_t max)
{
    size_t n = strlen(s);
    return n > 0 && n <= max && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

/*
 * Walks the pairs of mapping `n`, checking that keys are scalars, known
 * (listed in `keys`) and not repeated.  Stores each value node in `vals`
 * at the key's index (NULL when absent).  Returns 0 if `n` is no mapping.
 */
int case_read_mapping(ctx *x, const yaml_node_t *n, const char *what,
                      const char *const *keys, int nkeys, yaml_node_t **vals)
{
    for (int i = 0; i < nkeys; i++)
        vals[i] = NULL;
    if (n->type != YAML_MAPPING_NODE) {
        case_problem(x, n, "%s must be a mapping, not %s", what, case_kind_name(n));
        return 0;
    }
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = case_node_at(x, p->key), *v = case_node_at(x, p->value);
        if (k->type != YAML_SCALAR_NODE) {
            case_problem(x, k, "a key in %s must be a scalar, not %s", what, case_kind_name(k));
            continue;
        }
        int i;
        for (i = 0; i < nkeys; i++)
            if (!strcmp(keys[i], case_scalar(k)))
                break;
        if (i == nkeys) {
            case_problem(x, k, "unknown key '%s' in %s", case_scalar(k), what);
        } else if (vals[i]) {
            case_problem(x, k, "duplicate key '%s' in %s", case_scalar(k), what);
        } else {
            vals[i] = v;
        }
    }
    return 1;
}

int case_require(ctx *x, const yaml_node_t *where, yaml_node_t *v, const char *key,
                 const char *what)
{
    if (!v) {
        case_problem(x, where, "missing required key '%s' in %s", key, what);
        return 0;
    }
    return 1;
}

/* A list of dims: integers >= 0, at most RESHAPE_MAX_RANK of them. */
int case_get_dims(ctx *x, const yaml_node_t *n, const char *field, int32_t *rank, int64_t *dims)
{
    if (n->type != YAML_SEQUENCE_NODE) {
        case_problem(x, n, "'%s' must be a list of integers, not %s", field, case_kind_name(n));
        return 0;
    }
    yaml_node_item_t *it = n->data.sequence.items.start;
    long count = n->data.sequence.items.top - it;
    if (count > RESHAPE_MAX_RANK) {
        case_problem(x, n, "'%s' has %ld entries, more than %d", field, count, RESHAPE_MAX_RANK);
        return 0;
    }
    int ok = 1;
    for (long i = 0; i < count; i++)
        ok &= case_get_int_in(x, case_node_at(x, it[i]), field, 0, INT64_MAX, &dims[i]);
    *rank = (int32_t)count;
    return ok;
}

int case_get_strides(ctx *x, const yaml_node_t *n, const char *field, int32_t rank,
                     int64_t *strides)
{
    int32_t count;
    if (!case_get_dims(x, n, field, &count, strides))
        return 0;
    if (count != rank) {
        case_problem(x, n, "'%s' has %d entries, the tensor has rank %d: one stride a dim", field,
                     (int)count, (int)rank);
        return 0;
    }
    return 1;
}

/* The element count of dims, or UINT64_MAX when it does not fit int64.
 * A 0 dim makes it 0 whatever the others (DECISIONS.md D8). */
uint64_t case_volume_of(int32_t rank, const int64_t *dims)
{
    for (int32_t i = 0; i < rank; i++)
        if (dims[i] == 0)
            return 0;
    int64_t v = 1;
    for (int32_t i = 0; i < rank; i++)
        if (__builtin_mul_overflow(v, dims[i], &v))
            return UINT64_MAX;
    return (uint64_t)v;
}

int case_get_hex(ctx *x, const yaml_node_t *n, const char *field, fill *f)
{
    if (!case_want_scalar(x, n, field, "a string of hex digits"))
        return 0;
    const char *err;
    size_t at;
    if (hex_decode(case_scalar(n), &f->bytes, &f->nbytes, &err, &at)) {
        case_problem(x, n, "%s in '%s' at character %zu", err, field, at + 1);
        return 0;
    }
    return 1;
}
