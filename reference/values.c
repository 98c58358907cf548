/*
 * values.c - reading one value of a target shape tensor, in any shape dtype
 * an operation may allow (DECISIONS.md D7), in host byte order.  Depends on
 * the ABI header only.
 *
 * The shape tensor's data has no alignment promise, so every value is read
 * through memcpy into a variable of its own type.
 */
#include <string.h>

#include "reference.h"

/* Reads element `index` of type `type` from `data` into *value. */
#define READ_AS(type, data, index, value)                                      \
    do {                                                                       \
        type v_;                                                               \
        memcpy(&v_, (const unsigned char *)(data) + (index) * sizeof v_,       \
               sizeof v_);                                                     \
        *(value) = (int64_t)v_;                                                \
    } while (0)

reshape_status reshape_ref_shape_value(reshape_dtype dtype, const void *data,
                                       int64_t index, int64_t *value)
{
    switch (dtype) {
    case RESHAPE_DT_S64: READ_AS(int64_t, data, index, value); break;
    case RESHAPE_DT_S32: READ_AS(int32_t, data, index, value); break;
    case RESHAPE_DT_S16: READ_AS(int16_t, data, index, value); break;
    case RESHAPE_DT_S8: READ_AS(int8_t, data, index, value); break;
    case RESHAPE_DT_U32: READ_AS(uint32_t, data, index, value); break;
    case RESHAPE_DT_U16: READ_AS(uint16_t, data, index, value); break;
    case RESHAPE_DT_U8: READ_AS(uint8_t, data, index, value); break;
    case RESHAPE_DT_U64: {
        uint64_t u;
        memcpy(&u, (const unsigned char *)data + index * sizeof u, sizeof u);
        /* D4: positive, but no int64 dim can hold it */
        if (u > (uint64_t)INT64_MAX)
            return RESHAPE_E_OVERFLOW;
        *value = (int64_t)u;
        break;
    }
    default:
        return RESHAPE_E_INTERNAL;
    }
    return RESHAPE_OK;
}
