/*
 * crash_every_call.c - the reference, except that every infer_shape and
 * execute call dies of SIGSEGV (a read of address 0) before it does
 * anything: the worst case for worker replacement, a dead process per
 * request that reaches the candidate (`make bench`, bench/crashy.c).
 * supports() answers as the reference's does.  Depends on the ABI header
 * and the reference's table, linked in under the name
 * reshape_ref_candidate_v1 (bench/build.mk).
 */
#include <pthread.h>
#include <stddef.h>

#include "reshape_candidate.h"

const reshape_candidate *reshape_ref_candidate_v1(void);

static reshape_candidate table;

static void die_now(void)
{
    volatile int *volatile nowhere = NULL;
    *nowhere = 1;
}

static reshape_status crash_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                        int32_t *out_rank, int64_t *out_dims)
{
    (void)params;
    (void)src;
    (void)out_rank;
    (void)out_dims;
    die_now();
    return RESHAPE_E_INTERNAL;
}

static reshape_status crash_execute(const reshape_params *params, const reshape_tensor *src,
                                    const reshape_tensor *dst)
{
    (void)params;
    (void)src;
    (void)dst;
    die_now();
    return RESHAPE_E_INTERNAL;
}

static pthread_once_t made = PTHREAD_ONCE_INIT;

static void make_table(void)
{
    table = *reshape_ref_candidate_v1();
    table.name = "crash_every_call";
    table.infer_shape = crash_infer_shape;
    table.execute = crash_execute;
}

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    pthread_once(&made, make_table);
    return &table;
}
