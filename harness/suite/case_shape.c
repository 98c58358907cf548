/*
 * case_shape.c - a case's `shape:` (cases/FORMAT.md): its dtype and its
 * values, each range-checked for the shape dtype and encoded (integers,
 * floats exactly, boolean).  Depends on case_read.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/base.h"
#include "case_read.h"

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
        case_problem(x, n, "shape value %s does not fit %s", case_scalar(n), reshape_dtype_name(t));
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

void case_read_shape(ctx *x, const yaml_node_t *n, rcase *c)
{
    static const char *const keys[] = {"dtype", "values", "dims"};
    yaml_node_t *v[3];
    if (!case_read_mapping(x, n, "'shape'", keys, 3, v))
        return;
    int have_dtype = case_require(x, n, v[0], "dtype", "'shape'") &&
                     case_get_dtype(x, v[0], "dtype", &c->shape_dtype);
    if (!case_require(x, n, v[1], "values", "'shape'") || !have_dtype)
        return;
    if (v[1]->type != YAML_SEQUENCE_NODE) {
        case_problem(x, v[1], "'values' must be a list of integers, not %s", case_kind_name(v[1]));
        return;
    }
    yaml_node_item_t *it = v[1]->data.sequence.items.start;
    long count = v[1]->data.sequence.items.top - it;
    if (count > CASE_SHAPE_VALUES_MAX) {
        case_problem(x, v[1], "'values' has %ld entries, more than %d", count, CASE_SHAPE_VALUES_MAX);
        return;
    }
    c->nvalues = (int)count;
    for (long i = 0; i < count; i++) {
        yaml_node_t *e = case_node_at(x, it[i]);
        int neg;
        uint64_t mag;
        if (case_get_integer(x, e, "values", &neg, &mag))
            put_value(x, e, c, (int)i, neg, mag);
    }
    c->shape_nbytes = (size_t)payload_size((uint64_t)count, reshape_dtype_bits(c->shape_dtype));
    if (v[2]) {
        if (case_get_dims(x, v[2], "dims", &c->shape_rank, c->shape_dims) &&
            case_volume_of(c->shape_rank, c->shape_dims) != (uint64_t)count)
            case_problem(x, v[2], "the product of the shape's 'dims' is not the number of values (%ld)",
                    count);
    } else {
        c->shape_rank = 1;
        c->shape_dims[0] = count;
    }
}
