/*
 * table.c - the candidate table and the two exported entry points of a
 * broken candidate.  Depends on broken.h and the ABI header only.
 */
#include <pthread.h>
#include <stdlib.h>

#include "broken.h"

static _Thread_local const char *last_message;

void broken_set_error(const char *message)
{
    last_message = message;
}

static const char *last_error(void)
{
    return last_message;
}

/* The status's name as the message: enough to say which rule fired. */
static reshape_status finish(reshape_status st)
{
    broken_set_error(st == RESHAPE_OK ? NULL : reshape_status_name(st));
    return st;
}

/* Everything the ABI names is implemented; spec-forbidden combinations are
 * rejected by the rules with the spec's status. */
static reshape_status supports(reshape_op op, reshape_dtype data_dtype,
                               reshape_dtype shape_dtype, unsigned layout)
{
    unsigned all = RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_STRIDED_DST
                   | RESHAPE_LAYOUT_IN_PLACE | RESHAPE_LAYOUT_BROADCAST_SRC
                   | RESHAPE_LAYOUT_SIZE1_STRIDES;
    if (reshape_op_name(op) == NULL || reshape_dtype_name(data_dtype) == NULL
        || reshape_dtype_name(shape_dtype) == NULL || (layout & ~all) != 0)
        return RESHAPE_E_NOT_SUPPORTED;
    return RESHAPE_OK;
}

static reshape_status infer_shape(const reshape_params *params,
                                  const reshape_tensor *src,
                                  int32_t *out_rank, int64_t *out_dims)
{
    return finish(broken_infer(params, src, out_rank, out_dims));
}

static reshape_status execute(const reshape_params *params,
                              const reshape_tensor *src,
                              const reshape_tensor *dst)
{
    return finish(broken_execute(params, src, dst));
}

static reshape_candidate table = {
    .abi_version = RESHAPE_ABI_VERSION,
    .struct_size = sizeof(reshape_candidate),
    .version = "1",
    .supports = supports,
    .infer_shape = infer_shape,
    .execute = execute,
    .last_error = last_error,
};

/* The load hook, when a defect sets one; the base does nothing there. */
__attribute__((constructor)) static void loaded(void)
{
    if (broken_defect.hooks.load && !getenv("RESHAPE_BROKEN_DESCRIBE"))
        broken_defect.hooks.load();
}

static pthread_once_t named = PTHREAD_ONCE_INIT;

static void name_table(void)
{
    table.name = broken_defect.name;
}

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    pthread_once(&named, name_table);
    return &table;
}

RESHAPE_EXPORT const struct broken_defect *reshape_broken_defect_v1(void)
{
    return &broken_defect;
}
