/* supports_onnx_only.c - supports() refuses every op but ONNX Reshape-14,
 * as ONNX Runtime's adapter does: the repeat requests of the other ops,
 * refused, take no memory sample, and those of ONNX in the same batch must
 * get their own samples (the parent once gave them to the refused ones:
 * LEAK, "stopped at 0 sampling points"). */
#define DEFECT_SUPPORTS(op, d, s, layout)       \
    do {                                        \
        if (op != RESHAPE_OP_ONNX_RESHAPE_14)   \
            return RESHAPE_E_NOT_SUPPORTED;     \
    } while (0)
#include "base.h"
