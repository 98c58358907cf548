/*
 * slow_100x.c - the reference, 100 times slower: each call of supports,
 * infer_shape and execute runs the reference's own 100 times and returns
 * the last status.  A correct candidate, so it must be conformant with no
 * TIMEOUT: the other half of the adaptive timeout rule (issue 15 item 3,
 * docs/harness/timeouts.md).  Repeating a call is the reference's
 * time, not a sleep: a large execute is 100 copies.  Depends on the ABI
 * header and the reference's table, linked in under the name
 * reshape_ref_candidate_v1 (candidates/slow/build.mk).
 */
#include <pthread.h>
#include <stddef.h>

#include "reshape_candidate.h"

/* How many times each call runs the reference's. */
#define SLOW_TIMES 100

const reshape_candidate *reshape_ref_candidate_v1(void);

static const reshape_candidate *ref;
static reshape_candidate table;

static reshape_status slow_supports(reshape_op op, reshape_dtype data_dtype,
                                    reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st = RESHAPE_OK;
    for (int k = 0; k < SLOW_TIMES; k++)
        st = ref->supports(op, data_dtype, shape_dtype, layout);
    return st;
}

static reshape_status slow_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                       int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st = RESHAPE_OK;
    for (int k = 0; k < SLOW_TIMES; k++)
        st = ref->infer_shape(params, src, out_rank, out_dims);
    return st;
}

/* Out of place, every copy writes the same bytes; in place, src and dst
 * are one buffer and the reshape moves no byte, so repeating it changes
 * nothing either. */
static reshape_status slow_execute(const reshape_params *params, const reshape_tensor *src,
                                   const reshape_tensor *dst)
{
    reshape_status st = RESHAPE_OK;
    for (int k = 0; k < SLOW_TIMES; k++)
        st = ref->execute(params, src, dst);
    return st;
}

static const char *slow_last_error(void)
{
    return ref->last_error();
}

static pthread_once_t made = PTHREAD_ONCE_INIT;

static void make_table(void)
{
    ref = reshape_ref_candidate_v1();
    table = *ref;
    table.name = "slow_100x";
    table.supports = slow_supports;
    table.infer_shape = slow_infer_shape;
    table.execute = slow_execute;
    table.last_error = slow_last_error;
}

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    pthread_once(&made, make_table);
    return &table;
}
