/*
 * case_layout.c - a case's own layout (cases/FORMAT.md, "Layouts"): `dst:`
 * (strides, and dims for an error-only case) and `in_place:`, checked with
 * the input's strides against the rules of reference/DECISIONS.md D12 and
 * the case's expectation: a dst whose elements overlap (a contract case's
 * abused one too), and a strided src in place, can only expect errors.  Depends on case_read.h and strided.h.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/base.h"
#include "case_read.h"
#include "strided.h"

/* `dst:`: {strides: [..], dims: [..]}, either optional. */
static void read_dst(ctx *x, yaml_node_t *n, rcase *c)
{
    static const char *const keys[] = {"strides", "dims"};
    yaml_node_t *v[2];
    if (!case_read_mapping(x, n, "'dst'", keys, 2, v))
        return;
    int ok = case_first_success(c);
    if (v[1]) {
        if (ok >= 0) {
            case_problem(x, v[1], "'dims' of dst are the expected shape's: give them only in a "
                         "case that expects errors alone");
            return;
        }
        if (!case_get_dims(x, v[1], "dims", &c->dst_rank, c->dst_dims))
            return;
        if (case_volume_of(c->dst_rank, c->dst_dims) != c->volume) {
            case_problem(x, v[1], "dst dims hold %" PRIu64 " elements, the input %" PRIu64
                         ": write the dims the reshape infers", case_volume_of(c->dst_rank,
                                                                             c->dst_dims),
                         c->volume);
            return;
        }
        c->dst_has_dims = 1;
    } else if (ok >= 0) {
        c->dst_rank = c->outcomes[ok].rank;
        memcpy(c->dst_dims, c->outcomes[ok].dims, sizeof c->dst_dims);
    } else {
        c->dst_rank = c->rank;
        memcpy(c->dst_dims, c->dims, sizeof c->dst_dims);
    }
    if (!v[0])
        return;
    case_layout *l = &c->dst_layout;
    if (!case_get_strides(x, v[0], "strides", c->dst_rank, l->strides))
        return;
    l->strided = 1;
    unsigned bits = reshape_dtype_bits(c->dtype);
    uint64_t extent = strided_extent(c->dst_rank, c->dst_dims, l->strides);
    if (extent > (uint64_t)(INT64_MAX - 7) / bits) {
        case_problem(x, v[0], "dst reaches past bit 2^63 - 8 with these strides: no process "
                     "holds it");
        return;
    }
    c->layout_bytes = payload_size(extent, bits);
    int overlaps = strided_overlaps(c->dst_rank, c->dst_dims, l->strides);
    if (overlaps < 0)
        case_problem(x, v[0], "dst is too large to tell whether its elements overlap");
    else if (overlaps && ok >= 0)
        case_problem(x, v[0], "two elements of dst share an offset: execute refuses such a dst "
                     "(DECISIONS.md D12), so the case can expect only errors");
}

/* 1 when a contract case's abuse gives dst (of the first success's dims,
 * dense) strides whose elements overlap: dst_stride_zero on a dim above 1.
 * D12 refuses that call, so the case cannot expect a success. */
static int abused_dst_overlaps(const rcase *c)
{
    int ok = case_first_success(c);
    if (!c->abuse || ok < 0)
        return 0;
    abuse_call k;
    memset(&k, 0, sizeof k);
    k.src = (reshape_tensor){c->dtype, c->rank, c->dims, NULL, NULL};
    k.dst = (reshape_tensor){c->dtype, c->outcomes[ok].rank, c->outcomes[ok].dims, NULL, NULL};
    k.params.shape = &k.shape;
    abuse_apply(c->abuse, &k);
    if (!k.dst.strides || k.dst.dims != c->outcomes[ok].dims || k.dst.rank != c->outcomes[ok].rank)
        return 0;
    for (int32_t i = 0; i < k.dst.rank; i++)
        if (k.dst.strides[i] < 0)
            return 0;
    return strided_overlaps(k.dst.rank, k.dst.dims, k.dst.strides) == 1;
}

void case_read_layout(ctx *x, const yaml_node_t *case_node, yaml_node_t *dst,
                      yaml_node_t *in_place, rcase *c)
{
    const yaml_node_t *at = in_place ? in_place : dst ? dst : case_node;
    if (abused_dst_overlaps(c)) {
        case_problem(x, case_node, "abuse '%s' makes two elements of dst share an offset: "
                     "execute refuses it (DECISIONS.md D12), so the case can expect only errors",
                     abuse_name(c->abuse));
        return;
    }
    if (in_place && !case_get_bool(x, in_place, "in_place", &c->in_place))
        return;
    if (!case_has_layout(c) && !dst)
        return;
    if (c->infer_only || c->abuse || c->volume == UINT64_MAX) {
        case_problem(x, at, "a layout (strides, dst, in_place) needs a case that executes: not "
                     "infer_only, no abuse, a volume within int64");
        return;
    }
    if (dst)
        read_dst(x, dst, c);
    if (c->src_layout.strided && c->storage_bytes > c->layout_bytes)
        c->layout_bytes = c->storage_bytes;
    if (x->bad || !c->in_place)
        return;
    if (!c->src_layout.strided && !c->dst_layout.strided)
        case_problem(x, in_place, "a dense in-place call is the in_place variant of a dense case: "
                     "in_place: true needs strides on src or dst");
    else if (c->src_layout.offset)
        case_problem(x, in_place, "in place, src and dst start at one address: no 'offset'");
    else if (case_first_success(c) >= 0)
        case_problem(x, in_place, "in place with strides is refused (DECISIONS.md D12): the "
                     "case can expect only errors");
}
