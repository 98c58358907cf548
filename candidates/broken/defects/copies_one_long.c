/*
 * copies_one_long.c - the copy loop runs `<= n`: one element is read past
 * the end of src and written past the end of dst.
 */
#include "broken.h"

static int64_t element_count(int64_t volume, unsigned bits)
{
    (void)bits;
    return volume + 1;
}

const struct broken_defect broken_defect = {
    .name = "copies_one_long",
    .defect = "the copy runs one element past the end (a <= loop bound)",
    .expect = "MEMORY_VIOLATION",
    .faults_on_most_cases = 1,
    .hooks = {.element_count = element_count},
};
