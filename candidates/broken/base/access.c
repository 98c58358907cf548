/*
 * access.c - element access to packed tensors and the row-major walk the
 * copy uses.  Depends on broken.h and the ABI header only.
 */
#include <string.h>

#include "broken.h"

uint64_t broken_load(const void *data, int64_t offset, unsigned bits)
{
    const unsigned char *p = data;
    switch (bits) {
    case 1:
        return (p[offset / 8] >> (7 - offset % 8)) & 1u;
    case 4:
        return (p[offset / 2] >> (offset % 2 * 4)) & 0xFu;
    case 8: {
        return p[offset];
    }
    case 16: {
        uint16_t v;
        memcpy(&v, p + offset * 2, sizeof v);
        return v;
    }
    case 32: {
        uint32_t v;
        memcpy(&v, p + offset * 4, sizeof v);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p + offset * 8, sizeof v);
        return v;
    }
    }
}

void broken_store(void *data, int64_t offset, unsigned bits, uint64_t value)
{
    unsigned char *p = data;
    switch (bits) {
    case 1: {
        unsigned shift = 7 - (unsigned)(offset % 8);
        unsigned char *b = p + offset / 8;
        *b = (unsigned char)((*b & ~(1u << shift)) | ((value & 1u) << shift));
        return;
    }
    case 4: {
        unsigned shift = (unsigned)(offset % 2) * 4;
        unsigned char *b = p + offset / 2;
        *b = (unsigned char)((*b & ~(0xFu << shift))
                             | ((value & 0xFu) << shift));
        return;
    }
    case 8:
        p[offset] = (unsigned char)value;
        return;
    case 16: {
        uint16_t v = (uint16_t)value;
        memcpy(p + offset * 2, &v, sizeof v);
        return;
    }
    case 32: {
        uint32_t v = (uint32_t)value;
        memcpy(p + offset * 4, &v, sizeof v);
        return;
    }
    default:
        memcpy(p + offset * 8, &value, sizeof value);
        return;
    }
}

int64_t broken_payload_bytes(int64_t count, unsigned bits)
{
    return (count * (int64_t)bits + 7) / 8;
}

void broken_walk_init(struct broken_walk *walk, const reshape_tensor *t,
                      const int64_t *strides)
{
    walk->rank = t->rank;
    walk->dims = t->dims;
    /* A rank-0 tensor has one element at offset 0, whatever its strides. */
    walk->strides = t->rank > 0 ? strides : NULL;
    for (int32_t d = 0; d < t->rank; d++)
        walk->index[d] = 0;
    walk->logical = 0;
    walk->offset = 0;
}

void broken_walk_next(struct broken_walk *walk)
{
    walk->logical++;
    if (walk->strides == NULL) {
        walk->offset = walk->logical;
        return;
    }
    for (int32_t d = walk->rank - 1; d >= 0; d--) {
        walk->index[d]++;
        walk->offset += walk->strides[d];
        if (walk->index[d] < walk->dims[d] || d == 0)
            return;
        walk->offset -= walk->index[d] * walk->strides[d];
        walk->index[d] = 0;
    }
}

unsigned broken_layout(const reshape_tensor *src, const int64_t *src_strides,
                       const reshape_tensor *dst, const int64_t *dst_strides)
{
    unsigned layout = 0;
    if (src_strides != NULL)
        layout |= RESHAPE_LAYOUT_STRIDED_SRC;
    if (dst_strides != NULL)
        layout |= RESHAPE_LAYOUT_STRIDED_DST;
    if (src->data != NULL && src->data == dst->data)
        layout |= RESHAPE_LAYOUT_IN_PLACE;
    return layout;
}

int broken_has_dims(const reshape_tensor *t, int32_t rank,
                    const int64_t *dims)
{
    if (t->rank != rank)
        return 0;
    for (int32_t i = 0; i < rank; i++)
        if (t->dims[i] != dims[i])
            return 0;
    return 1;
}
