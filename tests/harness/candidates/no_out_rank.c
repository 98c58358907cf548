/* no_out_rank.c - returns OK from infer_shape on the trigger case without
 * writing *out_rank (the harness poisons it first). */
#define DEFECT_INFER(p, src, rank, dims) \
    do { if (is_trigger(src) && p->op == RESHAPE_OP_OPENVINO_RESHAPE_1) *rank = 0x7fffffff; } while (0)
#include "base.h"
