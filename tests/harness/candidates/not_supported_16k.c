/* not_supported_16k.c - supports() says OK, but execute returns
 * NOT_SUPPORTED on the input of 4096 elements (the data set's "ok_16k_f32",
 * which the threads variant runs), as a kernel may for a size it does not
 * handle.  infer_shape is correct. */
#define DEFECT_EXECUTE(p, src, dst)                          \
    do {                                                     \
        if (volume(src->rank, src->dims) == 4096)            \
            return RESHAPE_E_NOT_SUPPORTED;                  \
    } while (0)
#include "base.h"
