/*
 * volume.c - checked int64 products of dims: volumes and the largest offset
 * a strided tensor addresses.  Depends on the ABI header only.
 *
 * DECISIONS.md D8: "Volumes and products are int64; a tensor with a 0 dim has
 * volume 0 whatever its other dims (the zero is tested before any
 * multiplication); otherwise a product that leaves int64 is OVERFLOW, never
 * wrapped."  Every limit is tested before the arithmetic it guards.
 */
#include "reference.h"

reshape_status reshape_ref_volume(int32_t rank, const int64_t *dims,
                                  int64_t *volume)
{
    int64_t v = 1;

    for (int32_t i = 0; i < rank; i++)
        if (dims[i] == 0) {
            *volume = 0;
            return RESHAPE_OK;
        }
    for (int32_t i = 0; i < rank; i++) {
        /* v >= 1 and dims[i] >= 1 here */
        if (dims[i] > INT64_MAX / v)
            return RESHAPE_E_OVERFLOW;
        v *= dims[i];
    }
    *volume = v;
    return RESHAPE_OK;
}

reshape_status reshape_ref_max_offset(int32_t rank, const int64_t *dims,
                                      const int64_t *strides, int64_t *offset)
{
    int64_t sum = 0;
    int64_t dense = 1; /* the dense stride of dim i, walking from the last */

    for (int32_t i = rank - 1; i >= 0; i--) {
        int64_t stride = strides != NULL ? strides[i] : dense;
        int64_t last = dims[i] - 1; /* dims[i] >= 1: last >= 0 */

        if (stride != 0 && last > INT64_MAX / stride)
            return RESHAPE_E_OVERFLOW;
        if (last * stride > INT64_MAX - sum)
            return RESHAPE_E_OVERFLOW;
        sum += last * stride;
        if (strides == NULL && i > 0) {
            if (dims[i] > INT64_MAX / dense)
                return RESHAPE_E_OVERFLOW;
            dense *= dims[i];
        }
    }
    *offset = sum;
    return RESHAPE_OK;
}
