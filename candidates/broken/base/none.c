/*
 * none.c - the base kernel with no defect: build/broken/base.so, which the
 * suite must find conformant.
 */
#include "broken.h"

const struct broken_defect broken_defect = {
    .name = "base",
    .defect = "none: the naive kernel every broken candidate starts from",
    .expect = "PASS",
};
