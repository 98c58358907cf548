/*
 * exits_in_constructor.c - the library's constructor calls exit(0) (a
 * licence check that "fails" outside the vendor's machine): the candidate
 * dies while it is loaded, before any call.
 */
#include <stdlib.h>

#include "broken.h"

static void load(void)
{
    exit(0);
}

const struct broken_defect broken_defect = {
    .name = "exits_in_constructor",
    .defect = "exit(0) from a constructor, while the candidate is loaded",
    .expect = "CRASH",
    .hooks = {.load = load},
};
