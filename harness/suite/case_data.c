/*
 * case_data.c - a case's `input:` (cases/FORMAT.md): dtype, dims, its
 * `data:` fill (a pattern, repeated hex or explicit hex, checked against the
 * size of what it defines), and its strides and offset ("Layouts").
 * Depends on case_read.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/base.h"
#include "case_read.h"
#include "strided.h"

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

/*
 * The input's `strides` and `offset` (FORMAT.md, "Layouts"): one stride a
 * dim, an offset only with strides and on a byte boundary (`data` points at
 * a byte), and a buffer whose bits stay below the 2^63-bit bound of the ABI
 * (a tensor beyond it cannot be staged; the contract cases make that call).
 * Sets the storage the data fill defines.
 */
static void read_src_layout(ctx *x, yaml_node_t *strides, yaml_node_t *offset, rcase *c)
{
    unsigned bits = reshape_dtype_bits(c->dtype);
    case_layout *l = &c->src_layout;
    c->storage_elems = c->volume;
    if (offset && !strides) {
        case_problem(x, offset, "'offset' goes with 'strides' (a dense input starts its buffer)");
        return;
    }
    if (!strides)
        return;
    if (!case_get_strides(x, strides, "strides", c->rank, l->strides))
        return;
    l->strided = 1;
    if (offset && !case_get_int_in(x, offset, "offset", 0, INT64_MAX, &l->offset))
        return;
    if ((uint64_t)l->offset * bits % 8 != 0) {
        case_problem(x, offset, "'offset' %" PRId64 " of %s elements is not on a byte boundary",
                     l->offset, reshape_dtype_name(c->dtype));
        return;
    }
    uint64_t extent = strided_extent(c->rank, c->dims, l->strides);
    uint64_t bound = (uint64_t)(INT64_MAX - 7) / bits;
    if (extent > bound || (uint64_t)l->offset > bound - extent) {
        case_problem(x, strides, "the input's buffer reaches past bit 2^63 - 8 (an offset of "
                     "%" PRId64 " and these strides): no process holds it", l->offset);
        return;
    }
    c->storage_elems = (uint64_t)l->offset + extent;
}

void case_read_input(ctx *x, const yaml_node_t *n, rcase *c)
{
    static const char *const keys[] = {"dtype", "dims", "data", "strides", "offset"};
    yaml_node_t *v[5];
    if (!case_read_mapping(x, n, "'input'", keys, 5, v))
        return;
    if (case_require(x, n, v[0], "dtype", "'input'"))
        case_get_dtype(x, v[0], "dtype", &c->dtype);
    if (case_require(x, n, v[1], "dims", "'input'"))
        case_get_dims(x, v[1], "dims", &c->rank, c->dims);
    if (v[2])
        get_fill(x, v[2], &c->data);
    if (x->bad)
        return;
    c->volume = case_volume_of(c->rank, c->dims);
    c->payload_bytes = c->volume == UINT64_MAX
                           ? UINT64_MAX
                           : payload_size(c->volume, reshape_dtype_bits(c->dtype));
    read_src_layout(x, v[3], v[4], c);
    c->storage_bytes = c->storage_elems == UINT64_MAX
                           ? UINT64_MAX
                           : payload_size(c->storage_elems, reshape_dtype_bits(c->dtype));
    if (!x->bad && c->data.kind == FILL_HEX && c->data.nbytes != c->storage_bytes)
        case_problem(x, v[2], "'hex' has %zu bytes, the %s of %s%s has %" PRIu64, c->data.nbytes,
                     c->src_layout.strided ? "buffer" : "payload", reshape_dtype_name(c->dtype),
                     c->rank ? " dims" : " scalar", c->storage_bytes);
}
