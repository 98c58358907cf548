/*
 * two_minus_ones_accepted.c - "Not more than one -1" is never counted:
 * every -1 gets the same quotient.
 */
#include "broken.h"

const struct broken_defect broken_defect = {
    .name = "two_minus_ones_accepted",
    .defect = "more than one -1 is accepted, each solved to the same quotient",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.allow_many_minus_ones = 1},
};
