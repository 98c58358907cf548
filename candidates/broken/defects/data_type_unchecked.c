/*
 * data_type_unchecked.c - the oneDNN data type list "T: f32,f16,bf16" is
 * never checked: every dtype is reshaped (D5).
 */
#include "broken.h"

static reshape_status check_data_type(reshape_op op, reshape_dtype dtype)
{
    (void)op;
    (void)dtype;
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "data_type_unchecked",
    .defect = "oneDNN ops accept data types outside f32, f16, bf16",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.check_data_type = check_data_type},
};
