/*
 * shape_rank_unchecked.c - the shape tensor's own rank is never checked:
 * a rank-0 or 2-D shape tensor is read as its flat list of values (D3).
 */
#include "broken.h"

static reshape_status check_shape_rank(const reshape_tensor *shape)
{
    (void)shape;
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "shape_rank_unchecked",
    .defect = "a shape tensor that is not 1-D is read as a flat list",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.check_shape_rank = check_shape_rank},
};
