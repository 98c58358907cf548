/*
 * case_expect.c - a case's `expect:` (cases/FORMAT.md): a shape, an error,
 * any_of, an explicit payload checked against the input.  Depends on
 * case_read.h.
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

/* Payloads larger than this are not decoded at load time to check an
 * explicit expected payload against the input. */
#define LOAD_CHECK_PAYLOAD_MAX ((uint64_t)64 << 20)

static int get_status(ctx *x, const yaml_node_t *n, reshape_status *out)
{
    if (!case_want_scalar(x, n, "error", "a status name"))
        return 0;
    for (int s = RESHAPE_E_MULTIPLE_MINUS_ONE; s <= RESHAPE_E_OVERFLOW; s++)
        if (!strcmp(case_scalar(n), reshape_status_name((reshape_status)s))) {
            *out = (reshape_status)s;
            return 1;
        }
    if (!strcmp(case_scalar(n), "INVALID_ARGUMENT")) {
        *out = RESHAPE_E_INVALID_ARGUMENT;
        return 1;
    }
    case_problem(x, n, "unknown error status '%s'", case_scalar(n));
    return 0;
}

/* The input's elements in row-major order into `out` (payload_bytes): the
 * payload when dense; with strides, gathered from the buffer the data fill
 * defines, the padding bits of a sub-byte payload 0. */
static void input_elements(const rcase *c, uint8_t *out)
{
    unsigned bits = reshape_dtype_bits(c->dtype);
    if (!c->src_layout.strided) {
        fill_payload(&c->data, c->volume, bits, out);
        return;
    }
    uint8_t *store = xmalloc((size_t)c->storage_bytes + 1);
    fill_payload(&c->data, c->storage_elems, bits, store);
    strided_gather(c->rank, c->dims, c->src_layout.strides, (uint64_t)c->src_layout.offset, bits,
                   c->volume, store, out);
    free(store);
}

/* One outcome: {shape: [..]} (with optional data: {hex: ..}) or {error: NAME}.
 * `v` holds the values of keys shape, data, error. */
static void read_outcome(ctx *x, const yaml_node_t *n, yaml_node_t **v, rcase *c, outcome *o)
{
    memset(o, 0, sizeof *o);
    if (!!v[0] + !!v[2] != 1) {
        case_problem(x, n, "an expectation needs exactly one of 'shape', 'error', 'any_of'");
        return;
    }
    if (v[2]) {
        o->is_error = 1;
        get_status(x, v[2], &o->error);
        if (v[1])
            case_problem(x, v[1], "'data' goes with 'shape', not with 'error'");
        return;
    }
    if (!case_get_dims(x, v[0], "shape", &o->rank, o->dims))
        return;
    uint64_t vol = case_volume_of(o->rank, o->dims);
    if (c->volume != UINT64_MAX && vol != c->volume)
        case_problem(x, v[0], "expected shape has %" PRIu64 " elements, the input has %" PRIu64,
                vol, c->volume);
    if (v[1]) {
        static const char *const keys[] = {"hex"};
        yaml_node_t *h;
        if (!case_read_mapping(x, v[1], "'data'", keys, 1, &h))
            return;
        if (!case_require(x, v[1], h, "hex", "'data'") || !case_get_hex(x, h, "hex", &o->data))
            return;
        o->has_data = 1;
        o->data.kind = FILL_HEX;
        if (o->data.nbytes != c->payload_bytes) {
            case_problem(x, h, "'hex' has %zu bytes, the payload has %" PRIu64, o->data.nbytes,
                    c->payload_bytes);
        } else if (!x->bad && c->payload_bytes <= LOAD_CHECK_PAYLOAD_MAX &&
                   c->storage_bytes <= LOAD_CHECK_PAYLOAD_MAX) {
            /* reshape never changes bytes: the stated output must be the
             * input's elements, gathered by their offsets (D12) */
            uint8_t *p = xmalloc((size_t)c->payload_bytes + 1);
            input_elements(c, p);
            for (size_t k = 0; k < o->data.nbytes; k++)
                if (p[k] != o->data.bytes[k]) {
                    case_problem(x, h, "expected payload differs from the input%s at byte %zu",
                            c->src_layout.strided ? "'s elements gathered by their offsets"
                                                  : " payload", k);
                    break;
                }
            free(p);
        }
    }
}

void case_read_expect(ctx *x, const yaml_node_t *n, rcase *c)
{
    static const char *const keys[] = {"shape", "data", "error", "any_of", "note"};
    yaml_node_t *v[5];
    if (!case_read_mapping(x, n, "'expect'", keys, 5, v))
        return;
    if (!v[3]) {
        if (v[4])
            case_problem(x, v[4], "'note' goes with 'any_of'");
        c->noutcomes = 1;
        read_outcome(x, n, v, c, &c->outcomes[0]);
        return;
    }
    if (v[0] || v[1] || v[2]) {
        case_problem(x, n, "an expectation needs exactly one of 'shape', 'error', 'any_of'");
        return;
    }
    c->any_of = 1;
    if (case_require(x, n, v[4], "note", "'expect' with 'any_of'"))
        case_get_string(x, v[4], "note", &c->note);
    if (v[3]->type != YAML_SEQUENCE_NODE) {
        case_problem(x, v[3], "'any_of' must be a list, not %s", case_kind_name(v[3]));
        return;
    }
    yaml_node_item_t *it = v[3]->data.sequence.items.start;
    long count = v[3]->data.sequence.items.top - it;
    if (count < 1 || count > CASE_OUTCOMES_MAX) {
        case_problem(x, v[3], "'any_of' must list 1 to %d outcomes, not %ld", CASE_OUTCOMES_MAX,
                count);
        return;
    }
    for (long i = 0; i < count; i++) {
        static const char *const okeys[] = {"shape", "data", "error"};
        yaml_node_t *e = case_node_at(x, it[i]), *ov[3];
        if (case_read_mapping(x, e, "an 'any_of' entry", okeys, 3, ov))
            read_outcome(x, e, ov, c, &c->outcomes[i]);
    }
    c->noutcomes = (int)count;
}
