/*
 * case_load.c - one YAML case file into validated cases (cases/FORMAT.md),
 * with libyaml's document API.  Every problem is reported with the position
 * of the node at fault (from 1) and the case is left out; loading goes on.
 * Depends on libyaml, fill.h and case.h.
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
#include "case.h"
#include "fill.h"

/* The spec files a clause may cite (specs/). */
static const char *const spec_files[] = {
    "openvino_reshape_1.rst", "openvino_reshape_1_short.md",
    "onednn_static_reshape_1.md", "onednn_static_reshape_1_table.rst",
    "onednn_dynamic_reshape_1.md", "onnx_reshape_14.md",
    "include/reshape_candidate.h",      /* the ABI: contract cases (`abuse`) */
};

/* Payloads larger than this are not decoded at load time to check an
 * explicit expected payload against the input. */
#define LOAD_CHECK_PAYLOAD_MAX ((uint64_t)64 << 20)

typedef struct ctx {
    case_set *set;
    const char *path;
    yaml_document_t *doc;
    int bad;            /* the case being read has a problem */
} ctx;

static void problem(ctx *x, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void problem(ctx *x, const yaml_node_t *node, const char *fmt, ...)
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

static yaml_node_t *node_at(ctx *x, int index)
{
    return yaml_document_get_node(x->doc, index);
}

static const char *scalar(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

static const char *kind_name(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE: return "a scalar";
    case YAML_SEQUENCE_NODE: return "a list";
    case YAML_MAPPING_NODE: return "a mapping";
    default: return "nothing";
    }
}

/* ------------------------------------------------------------- scalars */

static int want_scalar(ctx *x, const yaml_node_t *n, const char *field, const char *what)
{
    if (n->type != YAML_SCALAR_NODE) {
        problem(x, n, "'%s' must be %s, not %s", field, what, kind_name(n));
        return 0;
    }
    return 1;
}

static int get_string(ctx *x, const yaml_node_t *n, const char *field, char **out)
{
    if (!want_scalar(x, n, field, "a string"))
        return 0;
    *out = xstrdup(scalar(n));
    return 1;
}

static int get_bool(ctx *x, const yaml_node_t *n, const char *field, int *out)
{
    if (!want_scalar(x, n, field, "true or false"))
        return 0;
    const char *s = scalar(n);
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
    problem(x, n, "'%s' must be true or false, not '%s'", field, s);
    return 0;
}

/*
 * Reads a plain decimal integer (an optional '-', then digits with no
 * leading zero) into *neg and *mag, its sign and magnitude.  Quoted
 * scalars, hex, octal, underscores and floats are refused: FORMAT.md wants
 * plain YAML integers, and YAML 1.1 would read "010" as octal.
 */
static int get_integer(ctx *x, const yaml_node_t *n, const char *field, int *neg, uint64_t *mag)
{
    if (!want_scalar(x, n, field, "an integer"))
        return 0;
    const char *s = scalar(n), *p = s;
    if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
        problem(x, n, "'%s' must be a plain integer, not the string '%s'", field, s);
        return 0;
    }
    *neg = (*p == '-');
    if (*p == '-' || *p == '+')
        p++;
    if (!*p || strspn(p, "0123456789") != strlen(p)) {
        problem(x, n, "'%s' must be an integer, not '%s'", field, s);
        return 0;
    }
    if (p[0] == '0' && p[1]) {
        problem(x, n, "integer '%s' has a leading zero", s);
        return 0;
    }
    errno = 0;
    unsigned long long v = strtoull(p, NULL, 10);
    if (errno == ERANGE) {
        problem(x, n, "integer '%s' is out of range", s);
        return 0;
    }
    *mag = v;
    if (*neg && v == 0)
        *neg = 0;
    return 1;
}

/* A signed integer in [lo, hi]. */
static int get_int_in(ctx *x, const yaml_node_t *n, const char *field, int64_t lo,
                      int64_t hi, int64_t *out)
{
    int neg;
    uint64_t mag;
    if (!get_integer(x, n, field, &neg, &mag))
        return 0;
    if ((!neg && mag > (uint64_t)INT64_MAX) || (neg && mag > (uint64_t)INT64_MAX + 1)) {
        problem(x, n, "integer '%s' is out of range", scalar(n));
        return 0;
    }
    int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    if (v < lo || v > hi) {
        problem(x, n, "'%s' must be between %" PRId64 " and %" PRId64 ", not %s", field,
                lo, hi, scalar(n));
        return 0;
    }
    *out = v;
    return 1;
}

static int get_dtype(ctx *x, const yaml_node_t *n, const char *field, reshape_dtype *out)
{
    if (!want_scalar(x, n, field, "a dtype name"))
        return 0;
    for (int d = 1; d <= RESHAPE_DT_COUNT; d++)
        if (!strcmp(scalar(n), reshape_dtype_name((reshape_dtype)d))) {
            *out = (reshape_dtype)d;
            return 1;
        }
    problem(x, n, "unknown dtype '%s'", scalar(n));
    return 0;
}

static int is_word(const char *s, size_t max)
{
    size_t n = strlen(s);
    return n > 0 && n <= max && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

/* ------------------------------------------------------------ mappings */

/*
 * Walks the pairs of mapping `n`, checking that keys are scalars, known
 * (listed in `keys`) and not repeated.  Stores each value node in `vals`
 * at the key's index (NULL when absent).  Returns 0 if `n` is no mapping.
 */
static int read_mapping(ctx *x, const yaml_node_t *n, const char *what,
                        const char *const *keys, int nkeys, yaml_node_t **vals)
{
    for (int i = 0; i < nkeys; i++)
        vals[i] = NULL;
    if (n->type != YAML_MAPPING_NODE) {
        problem(x, n, "%s must be a mapping, not %s", what, kind_name(n));
        return 0;
    }
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node_at(x, p->key), *v = node_at(x, p->value);
        if (k->type != YAML_SCALAR_NODE) {
            problem(x, k, "a key in %s must be a scalar, not %s", what, kind_name(k));
            continue;
        }
        int i;
        for (i = 0; i < nkeys; i++)
            if (!strcmp(keys[i], scalar(k)))
                break;
        if (i == nkeys) {
            problem(x, k, "unknown key '%s' in %s", scalar(k), what);
        } else if (vals[i]) {
            problem(x, k, "duplicate key '%s' in %s", scalar(k), what);
        } else {
            vals[i] = v;
        }
    }
    return 1;
}

static int require(ctx *x, const yaml_node_t *where, yaml_node_t *v, const char *key,
                   const char *what)
{
    if (!v) {
        problem(x, where, "missing required key '%s' in %s", key, what);
        return 0;
    }
    return 1;
}

/* A list of dims: integers >= 0, at most RESHAPE_MAX_RANK of them. */
static int get_dims(ctx *x, const yaml_node_t *n, const char *field, int32_t *rank, int64_t *dims)
{
    if (n->type != YAML_SEQUENCE_NODE) {
        problem(x, n, "'%s' must be a list of integers, not %s", field, kind_name(n));
        return 0;
    }
    yaml_node_item_t *it = n->data.sequence.items.start;
    long count = n->data.sequence.items.top - it;
    if (count > RESHAPE_MAX_RANK) {
        problem(x, n, "'%s' has %ld entries, more than %d", field, count, RESHAPE_MAX_RANK);
        return 0;
    }
    int ok = 1;
    for (long i = 0; i < count; i++)
        ok &= get_int_in(x, node_at(x, it[i]), field, 0, INT64_MAX, &dims[i]);
    *rank = (int32_t)count;
    return ok;
}

/* The element count of dims, or UINT64_MAX when it does not fit int64.
 * A 0 dim makes it 0 whatever the others (DECISIONS.md D8). */
static uint64_t volume_of(int32_t rank, const int64_t *dims)
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

/* ----------------------------------------------------------------- data */

static int get_hex(ctx *x, const yaml_node_t *n, const char *field, fill *f)
{
    if (!want_scalar(x, n, field, "a string of hex digits"))
        return 0;
    const char *err;
    size_t at;
    if (hex_decode(scalar(n), &f->bytes, &f->nbytes, &err, &at)) {
        problem(x, n, "%s in '%s' at character %zu", err, field, at + 1);
        return 0;
    }
    return 1;
}

/* `data:` as iota, {random: SEED}, {repeat: HEX} or {hex: HEX}. */
static int get_fill(ctx *x, const yaml_node_t *n, fill *f)
{
    static const char *const keys[] = {"random", "repeat", "hex"};
    yaml_node_t *v[3];
    memset(f, 0, sizeof *f);
    if (n->type == YAML_SCALAR_NODE) {
        if (strcmp(scalar(n), "iota")) {
            problem(x, n, "unknown fill '%s' (iota, random, repeat or hex)", scalar(n));
            return 0;
        }
        f->kind = FILL_IOTA;
        return 1;
    }
    if (!read_mapping(x, n, "'data'", keys, 3, v))
        return 0;
    int given = !!v[0] + !!v[1] + !!v[2];
    if (given != 1) {
        problem(x, n, "'data' must have exactly one of 'random', 'repeat', 'hex'");
        return 0;
    }
    if (v[0]) {
        int neg;
        uint64_t seed;
        if (!get_integer(x, v[0], "random", &neg, &seed))
            return 0;
        if (neg) {
            problem(x, v[0], "'random' must be between 0 and 18446744073709551615, not %s",
                    scalar(v[0]));
            return 0;
        }
        f->kind = FILL_RANDOM;
        f->seed = seed;
        return 1;
    }
    if (v[1]) {
        f->kind = FILL_REPEAT;
        if (!get_hex(x, v[1], "repeat", f))
            return 0;
        if (f->nbytes == 0) {
            problem(x, v[1], "'repeat' needs at least one byte");
            return 0;
        }
        return 1;
    }
    f->kind = FILL_HEX;
    return get_hex(x, v[2], "hex", f);
}

/* ---------------------------------------------------------------- input */

static void read_input(ctx *x, const yaml_node_t *n, rcase *c)
{
    static const char *const keys[] = {"dtype", "dims", "data"};
    yaml_node_t *v[3];
    if (!read_mapping(x, n, "'input'", keys, 3, v))
        return;
    if (require(x, n, v[0], "dtype", "'input'"))
        get_dtype(x, v[0], "dtype", &c->dtype);
    if (require(x, n, v[1], "dims", "'input'"))
        get_dims(x, v[1], "dims", &c->rank, c->dims);
    if (v[2])
        get_fill(x, v[2], &c->data);
    if (!x->bad) {
        c->volume = volume_of(c->rank, c->dims);
        c->payload_bytes = c->volume == UINT64_MAX
                               ? UINT64_MAX
                               : payload_size(c->volume, reshape_dtype_bits(c->dtype));
        if (c->data.kind == FILL_HEX && c->data.nbytes != c->payload_bytes)
            problem(x, v[2], "'hex' has %zu bytes, the payload of %s%s has %" PRIu64,
                    c->data.nbytes, reshape_dtype_name(c->dtype),
                    c->rank ? " dims" : " scalar", c->payload_bytes);
    }
}

/* ---------------------------------------------------------------- shape */

/* Exactly representable integer `v` in a float format with `ebits`
 * exponent and `mbits` mantissa bits; returns 0 when it is not. */
static int encode_float_int(int64_t v, unsigned ebits, unsigned mbits, int e4m3,
                            uint64_t *out)
{
    uint64_t sign = v < 0, mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (mag == 0) {
        *out = 0;
        return 1;
    }
    unsigned p = 63 - (unsigned)__builtin_clzll(mag);
    if (p > mbits && (mag & ((1ull << (p - mbits)) - 1)))
        return 0;
    uint64_t bias = (1ull << (ebits - 1)) - 1, e = p + bias;
    uint64_t maxe = e4m3 ? (1ull << ebits) - 1 : (1ull << ebits) - 2;
    uint64_t m = (p >= mbits ? mag >> (p - mbits) : mag << (mbits - p)) & ((1ull << mbits) - 1);
    if (e > maxe || (e4m3 && e == maxe && m == (1ull << mbits) - 1))
        return 0;
    *out = sign << (ebits + mbits) | e << mbits | m;
    return 1;
}

/*
 * Range-checks value `i` (sign `neg`, magnitude `mag`) for the shape dtype
 * and stores it in c->values and, encoded, in c->shape_bytes.  Integers
 * must fit; floats and boolean hold the value exactly (cases that check
 * the shape-type rule).
 */
static int put_value(ctx *x, const yaml_node_t *n, rcase *c, int i, int neg, uint64_t mag)
{
    reshape_dtype t = c->shape_dtype;
    unsigned bits = reshape_dtype_bits(t);
    int is_signed = t == RESHAPE_DT_S64 || t == RESHAPE_DT_S32 || t == RESHAPE_DT_S16 ||
                    t == RESHAPE_DT_S8 || t == RESHAPE_DT_S4;
    int is_unsigned = t == RESHAPE_DT_U64 || t == RESHAPE_DT_U32 || t == RESHAPE_DT_U16 ||
                      t == RESHAPE_DT_U8 || t == RESHAPE_DT_U4 || t == RESHAPE_DT_U1 ||
                      t == RESHAPE_DT_BOOLEAN;
    uint64_t raw = neg ? 0 - mag : mag, enc = raw;
    int fits;
    if (is_unsigned) {
        uint64_t max = t == RESHAPE_DT_BOOLEAN ? 1 : bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
        fits = !neg && mag <= max;
    } else if (is_signed) {
        uint64_t half = 1ull << (bits - 1);
        fits = neg ? mag <= half : mag < half;
    } else {
        fits = mag <= (uint64_t)INT64_MAX;
        if (fits) {
            int64_t v = (int64_t)raw;
            switch (t) {
            case RESHAPE_DT_F64: {
                double d = (double)v;
                fits = d >= -9.2e18 && d <= 9.2e18 && (int64_t)d == v;
                memcpy(&enc, &d, 8);
                break;
            }
            case RESHAPE_DT_F32: fits = encode_float_int(v, 8, 23, 0, &enc); break;
            case RESHAPE_DT_F16: fits = encode_float_int(v, 5, 10, 0, &enc); break;
            case RESHAPE_DT_BF16: fits = encode_float_int(v, 8, 7, 0, &enc); break;
            case RESHAPE_DT_F8E4M3: fits = encode_float_int(v, 4, 3, 1, &enc); break;
            default: fits = encode_float_int(v, 5, 2, 0, &enc); break;
            }
        }
    }
    if (!fits) {
        problem(x, n, "shape value %s does not fit %s", scalar(n), reshape_dtype_name(t));
        return 0;
    }
    c->values[i] = raw;
    if (bits < 8) {
        subbyte_put(c->shape_bytes, (uint64_t)i, bits, (unsigned)enc);
    } else {
        uint64_t le = enc;  /* host order: take the low bytes of the value */
        switch (bits) {
        case 8: c->shape_bytes[i] = (uint8_t)le; break;
        case 16: { uint16_t w = (uint16_t)le; memcpy(c->shape_bytes + 2 * i, &w, 2); break; }
        case 32: { uint32_t w = (uint32_t)le; memcpy(c->shape_bytes + 4 * i, &w, 4); break; }
        default: memcpy(c->shape_bytes + 8 * i, &le, 8); break;
        }
    }
    return 1;
}

static void read_shape(ctx *x, const yaml_node_t *n, rcase *c)
{
    static const char *const keys[] = {"dtype", "values", "dims"};
    yaml_node_t *v[3];
    if (!read_mapping(x, n, "'shape'", keys, 3, v))
        return;
    int have_dtype = require(x, n, v[0], "dtype", "'shape'") &&
                     get_dtype(x, v[0], "dtype", &c->shape_dtype);
    if (!require(x, n, v[1], "values", "'shape'") || !have_dtype)
        return;
    if (v[1]->type != YAML_SEQUENCE_NODE) {
        problem(x, v[1], "'values' must be a list of integers, not %s", kind_name(v[1]));
        return;
    }
    yaml_node_item_t *it = v[1]->data.sequence.items.start;
    long count = v[1]->data.sequence.items.top - it;
    if (count > CASE_SHAPE_VALUES_MAX) {
        problem(x, v[1], "'values' has %ld entries, more than %d", count, CASE_SHAPE_VALUES_MAX);
        return;
    }
    c->nvalues = (int)count;
    for (long i = 0; i < count; i++) {
        yaml_node_t *e = node_at(x, it[i]);
        int neg;
        uint64_t mag;
        if (get_integer(x, e, "values", &neg, &mag))
            put_value(x, e, c, (int)i, neg, mag);
    }
    c->shape_nbytes = (size_t)payload_size((uint64_t)count, reshape_dtype_bits(c->shape_dtype));
    if (v[2]) {
        if (get_dims(x, v[2], "dims", &c->shape_rank, c->shape_dims) &&
            volume_of(c->shape_rank, c->shape_dims) != (uint64_t)count)
            problem(x, v[2], "the product of the shape's 'dims' is not the number of values (%ld)",
                    count);
    } else {
        c->shape_rank = 1;
        c->shape_dims[0] = count;
    }
}

/* ---------------------------------------------------------------- expect */

static int get_status(ctx *x, const yaml_node_t *n, reshape_status *out)
{
    if (!want_scalar(x, n, "error", "a status name"))
        return 0;
    for (int s = RESHAPE_E_MULTIPLE_MINUS_ONE; s <= RESHAPE_E_OVERFLOW; s++)
        if (!strcmp(scalar(n), reshape_status_name((reshape_status)s))) {
            *out = (reshape_status)s;
            return 1;
        }
    if (!strcmp(scalar(n), "INVALID_ARGUMENT")) {
        *out = RESHAPE_E_INVALID_ARGUMENT;
        return 1;
    }
    problem(x, n, "unknown error status '%s'", scalar(n));
    return 0;
}

/* One outcome: {shape: [..]} (with optional data: {hex: ..}) or {error: NAME}.
 * `v` holds the values of keys shape, data, error. */
static void read_outcome(ctx *x, const yaml_node_t *n, yaml_node_t **v, rcase *c, outcome *o)
{
    memset(o, 0, sizeof *o);
    if (!!v[0] + !!v[2] != 1) {
        problem(x, n, "an expectation needs exactly one of 'shape', 'error', 'any_of'");
        return;
    }
    if (v[2]) {
        o->is_error = 1;
        get_status(x, v[2], &o->error);
        if (v[1])
            problem(x, v[1], "'data' goes with 'shape', not with 'error'");
        return;
    }
    if (!get_dims(x, v[0], "shape", &o->rank, o->dims))
        return;
    uint64_t vol = volume_of(o->rank, o->dims);
    if (c->volume != UINT64_MAX && vol != c->volume)
        problem(x, v[0], "expected shape has %" PRIu64 " elements, the input has %" PRIu64,
                vol, c->volume);
    if (v[1]) {
        static const char *const keys[] = {"hex"};
        yaml_node_t *h;
        if (!read_mapping(x, v[1], "'data'", keys, 1, &h))
            return;
        if (!require(x, v[1], h, "hex", "'data'") || !get_hex(x, h, "hex", &o->data))
            return;
        o->has_data = 1;
        o->data.kind = FILL_HEX;
        if (o->data.nbytes != c->payload_bytes) {
            problem(x, h, "'hex' has %zu bytes, the payload has %" PRIu64, o->data.nbytes,
                    c->payload_bytes);
        } else if (!x->bad && c->payload_bytes <= LOAD_CHECK_PAYLOAD_MAX) {
            /* reshape never changes bytes: the stated output must be the input */
            uint8_t *p = xmalloc((size_t)c->payload_bytes);
            fill_payload(&c->data, c->volume, reshape_dtype_bits(c->dtype), p);
            for (size_t k = 0; k < o->data.nbytes; k++)
                if (p[k] != o->data.bytes[k]) {
                    problem(x, h, "expected payload differs from the input payload at byte %zu",
                            k);
                    break;
                }
            free(p);
        }
    }
}

static void read_expect(ctx *x, const yaml_node_t *n, rcase *c)
{
    static const char *const keys[] = {"shape", "data", "error", "any_of", "note"};
    yaml_node_t *v[5];
    if (!read_mapping(x, n, "'expect'", keys, 5, v))
        return;
    if (!v[3]) {
        if (v[4])
            problem(x, v[4], "'note' goes with 'any_of'");
        c->noutcomes = 1;
        read_outcome(x, n, v, c, &c->outcomes[0]);
        return;
    }
    if (v[0] || v[1] || v[2]) {
        problem(x, n, "an expectation needs exactly one of 'shape', 'error', 'any_of'");
        return;
    }
    c->any_of = 1;
    if (require(x, n, v[4], "note", "'expect' with 'any_of'"))
        get_string(x, v[4], "note", &c->note);
    if (v[3]->type != YAML_SEQUENCE_NODE) {
        problem(x, v[3], "'any_of' must be a list, not %s", kind_name(v[3]));
        return;
    }
    yaml_node_item_t *it = v[3]->data.sequence.items.start;
    long count = v[3]->data.sequence.items.top - it;
    if (count < 1 || count > CASE_OUTCOMES_MAX) {
        problem(x, v[3], "'any_of' must list 1 to %d outcomes, not %ld", CASE_OUTCOMES_MAX,
                count);
        return;
    }
    for (long i = 0; i < count; i++) {
        static const char *const okeys[] = {"shape", "data", "error"};
        yaml_node_t *e = node_at(x, it[i]), *ov[3];
        if (read_mapping(x, e, "an 'any_of' entry", okeys, 3, ov))
            read_outcome(x, e, ov, c, &c->outcomes[i]);
    }
    c->noutcomes = (int)count;
}

/* ----------------------------------------------------------------- case */

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
    if (!want_scalar(x, n, "abuse", "an abuse name"))
        return;
    int a = abuse_parse(scalar(n));
    if (a < 0) {
        problem(x, n, "unknown abuse '%s' (one of %s)", scalar(n), abuse_names());
        return;
    }
    unsigned f = abuse_flags((case_abuse)a);
    int two = c->rank >= 1 && c->dims[0] >= 2 && c->dims[c->rank - 1] >= 2 && c->volume >= 2 &&
              c->volume != UINT64_MAX;
    if (f & ABUSE_NEEDS_TWO_2D)
        two = two && c->rank >= 2 && c->dims[1] >= 2;
    if (!(f & ABUSE_ON_EXECUTE) && !c->infer_only)
        problem(x, n, "abuse '%s' is made by infer_shape only: the case needs infer_only: true",
                scalar(n));
    else if (!(f & ABUSE_ON_INFER) && c->infer_only)
        problem(x, n, "abuse '%s' is made by execute only: the case cannot be infer_only",
                scalar(n));
    else if ((f & ABUSE_NEEDS_RANK) && c->rank < 1)
        problem(x, n, "abuse '%s' changes index 0: the input needs a rank of at least 1",
                scalar(n));
    else if ((f & ABUSE_NEEDS_RANK_2) && (c->rank != 2 || c->nvalues != 2))
        problem(x, n, "abuse '%s' needs an input of rank 2 and a shape of 2 values", scalar(n));
    else if ((f & ABUSE_NEEDS_TWO) && !two)
        problem(x, n, "abuse '%s' needs an input with its first%s and last dims >= 2, no dim 0", scalar(n),
                (f & ABUSE_NEEDS_TWO_2D) ? ", second" : "");
    else
        c->abuse = (case_abuse)a;
}

enum { K_ID, K_OP, K_CLAUSE, K_QUOTE, K_TAGS, K_INPUT, K_SHAPE, K_SPECIAL_ZERO,
       K_INFER_ONLY, K_EXPECT, K_GENERATED, K_ABUSE, K_COUNT };

static void read_case(ctx *x, const yaml_node_t *n, int file_generated)
{
    static const char *const keys[K_COUNT] = {
        "id", "op", "clause", "quote", "tags", "input", "shape", "special_zero",
        "infer_only", "expect", "generated", "abuse"};
    yaml_node_t *v[K_COUNT];
    rcase c;
    memset(&c, 0, sizeof c);
    c.file = x->path;
    c.line = (int)n->start_mark.line + 1;
    c.column = (int)n->start_mark.column + 1;
    c.generated = file_generated;
    x->bad = 0;
    if (!read_mapping(x, n, "a case", keys, K_COUNT, v))
        return;
    const char *what = "a case";
    if (require(x, n, v[K_ID], "id", what) && get_string(x, v[K_ID], "id", &c.id) &&
        !is_word(c.id, CASE_ID_MAX))
        problem(x, v[K_ID], "id '%s' must be 1 to %d characters of a-z, 0-9 and _", c.id,
                CASE_ID_MAX);
    if (require(x, n, v[K_OP], "op", what) && want_scalar(x, v[K_OP], "op", "an op name")) {
        for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
            if (!strcmp(scalar(v[K_OP]), reshape_op_name((reshape_op)op)))
                c.op = (reshape_op)op;
        if (!c.op)
            problem(x, v[K_OP], "unknown op '%s'", scalar(v[K_OP]));
    }
    if (require(x, n, v[K_CLAUSE], "clause", what) &&
        get_string(x, v[K_CLAUSE], "clause", &c.clause)) {
        size_t i, nspec = sizeof spec_files / sizeof *spec_files;
        for (i = 0; i < nspec; i++) {
            size_t len = strlen(spec_files[i]);
            if (!strncmp(c.clause, spec_files[i], len) &&
                (c.clause[len] == '\0' || c.clause[len] == ','))
                break;
        }
        if (i == nspec)
            problem(x, v[K_CLAUSE], "clause '%s' does not start with a spec file name", c.clause);
    }
    if (require(x, n, v[K_QUOTE], "quote", what))
        get_string(x, v[K_QUOTE], "quote", &c.quote);
    if (v[K_TAGS]) {
        yaml_node_t *t = v[K_TAGS];
        if (t->type != YAML_SEQUENCE_NODE) {
            problem(x, t, "'tags' must be a list, not %s", kind_name(t));
        } else {
            long count = t->data.sequence.items.top - t->data.sequence.items.start;
            c.tags = xcalloc((size_t)count + 1, sizeof *c.tags);
            for (long i = 0; i < count; i++) {
                yaml_node_t *e = node_at(x, t->data.sequence.items.start[i]);
                char *tag;
                if (!get_string(x, e, "tags", &tag))
                    continue;
                c.tags[c.ntags++] = tag;
                if (!is_word(tag, CASE_ID_MAX))
                    problem(x, e, "tag '%s' must be a-z, 0-9 and _", tag);
            }
        }
    }
    if (require(x, n, v[K_INPUT], "input", what))
        read_input(x, v[K_INPUT], &c);
    if (require(x, n, v[K_SHAPE], "shape", what))
        read_shape(x, v[K_SHAPE], &c);
    if (require(x, n, v[K_SPECIAL_ZERO], "special_zero", what))
        get_bool(x, v[K_SPECIAL_ZERO], "special_zero", &c.special_zero);
    if (v[K_INFER_ONLY])
        get_bool(x, v[K_INFER_ONLY], "infer_only", &c.infer_only);
    if (v[K_GENERATED])
        get_bool(x, v[K_GENERATED], "generated", &c.generated);
    if (v[K_ABUSE] && !x->bad)
        read_abuse(x, v[K_ABUSE], &c);
    /* the expectation is read last: it is checked against the input */
    if (require(x, n, v[K_EXPECT], "expect", what) && !x->bad)
        read_expect(x, v[K_EXPECT], &c);
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

/* ----------------------------------------------------------------- file */

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
        if (read_mapping(&x, root, "the file", keys, 2, v)) {
            int generated = 0;
            if (v[0])
                get_bool(&x, v[0], "generated", &generated);
            if (require(&x, root, v[1], "cases", "the file")) {
                if (v[1]->type != YAML_SEQUENCE_NODE) {
                    problem(&x, v[1], "'cases' must be a list, not %s", kind_name(v[1]));
                } else {
                    for (yaml_node_item_t *it = v[1]->data.sequence.items.start;
                         it < v[1]->data.sequence.items.top; it++)
                        read_case(&x, node_at(&x, *it), generated);
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
