/*
 * copies_one_short.c - the copy loop stops one element early (a `< n - 1`
 * bound), so the last element of dst keeps what it held.
 */
#include "broken.h"

static int64_t element_count(int64_t volume, unsigned bits)
{
    (void)bits;
    return volume > 0 ? volume - 1 : 0;
}

const struct broken_defect broken_defect = {
    .name = "copies_one_short",
    .defect = "the copy stops one element short of the end",
    .expect = "FAIL",
    .hooks = {.element_count = element_count},
};
