/*
 * case_data.c - a case's `input:` (cases/FORMAT.md): dtype, dims, strides
 * and its `data:` fill (a pattern, repeated hex or explicit hex, checked
 * against the payload's size).  Depends on case_read.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/base.h"
#include "case_read.h"

/* `data:` as iota, {random: SEED}, {repeat: HEX} or {hex: HEX}. */
static int get_fill(ctx *x, const yaml_node_t *n, fill *f)
{
    static const char *const keys[] = {"random", "repeat", "hex"};
    yaml_node_t *v[3];
    memset(f, 0, sizeof *f);
    if (n->type == YAML_SCALAR_NODE) {
        if (strcmp(case_scalar(n), "iota")) {
            case_problem(x, n, "unknown fill '%s' (iota, random, repeat or hex)", case_scalar(n));
            return 0;
        }
        f->kind = FILL_IOTA;
        return 1;
    }
    if (!case_read_mapping(x, n, "'data'", keys, 3, v))
        return 0;
    int given = !!v[0] + !!v[1] + !!v[2];
    if (given != 1) {
        case_problem(x, n, "'data' must have exactly one of 'random', 'repeat', 'hex'");
        return 0;
    }
    if (v[0]) {
        int neg;
        uint64_t seed;
        if (!case_get_integer(x, v[0], "random", &neg, &seed))
            return 0;
        if (neg) {
            case_problem(x, v[0], "'random' must be between 0 and 18446744073709551615, not %s",
                    case_scalar(v[0]));
            return 0;
        }
        f->kind = FILL_RANDOM;
        f->seed = seed;
        return 1;
    }
    if (v[1]) {
        f->kind = FILL_REPEAT;
        if (!case_get_hex(x, v[1], "repeat", f))
            return 0;
        if (f->nbytes == 0) {
            case_problem(x, v[1], "'repeat' needs at least one byte");
            return 0;
        }
        return 1;
    }
    f->kind = FILL_HEX;
    return case_get_hex(x, v[2], "hex", f);
}

void case_read_input(ctx *x, const yaml_node_t *n, rcase *c)
{
    static const char *const keys[] = {"dtype", "dims", "data"};
    yaml_node_t *v[3];
    if (!case_read_mapping(x, n, "'input'", keys, 3, v))
        return;
    if (case_require(x, n, v[0], "dtype", "'input'"))
        case_get_dtype(x, v[0], "dtype", &c->dtype);
    if (case_require(x, n, v[1], "dims", "'input'"))
        case_get_dims(x, v[1], "dims", &c->rank, c->dims);
    if (v[2])
        get_fill(x, v[2], &c->data);
    if (!x->bad) {
        c->volume = case_volume_of(c->rank, c->dims);
        c->payload_bytes = c->volume == UINT64_MAX
                               ? UINT64_MAX
                               : payload_size(c->volume, reshape_dtype_bits(c->dtype));
        if (c->data.kind == FILL_HEX && c->data.nbytes != c->payload_bytes)
            case_problem(x, v[2], "'hex' has %zu bytes, the payload of %s%s has %" PRIu64,
                    c->data.nbytes, reshape_dtype_name(c->dtype),
                    c->rank ? " dims" : " scalar", c->payload_bytes);
    }
}
