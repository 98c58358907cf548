/*
 * subbyte_count_rounded_down.c - the element count of a sub-byte tensor is
 * converted to whole bytes and back with truncating division, so the
 * elements of a last, partial byte are never copied.
 */
#include "broken.h"

static int64_t element_count(int64_t volume, unsigned bits)
{
    if (bits >= 8)
        return volume;
    return volume * bits / 8 * 8 / bits;
}

const struct broken_defect broken_defect = {
    .name = "subbyte_count_rounded_down",
    .defect = "u4/s4/u1 counts are rounded down to whole bytes",
    .expect = "FAIL",
    .hooks = {.element_count = element_count},
};
