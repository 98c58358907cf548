/*
 * unsigned_shape_read_signed.c - shape values are read through the signed
 * type of their width, so u8 255 or u64 2^64-1 becomes -1 (D4).
 */
#include "broken.h"

static reshape_status read_value(const reshape_tensor *shape, int64_t i,
                                 int64_t *value)
{
    unsigned bits = reshape_dtype_bits(shape->dtype);
    uint64_t raw = broken_load(shape->data, i, bits);
    switch (shape->dtype) {
    case RESHAPE_DT_U64: *value = (int64_t)raw; return RESHAPE_OK;
    case RESHAPE_DT_U32: *value = (int32_t)(uint32_t)raw; return RESHAPE_OK;
    case RESHAPE_DT_U16: *value = (int16_t)(uint16_t)raw; return RESHAPE_OK;
    case RESHAPE_DT_U8: *value = (int8_t)(uint8_t)raw; return RESHAPE_OK;
    default: return base_read_value(shape, i, value);
    }
}

const struct broken_defect broken_defect = {
    .name = "unsigned_shape_read_signed",
    .defect = "unsigned shape values are read as signed: u64 max is -1",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.read_value = read_value},
};
