/*
 * fpe_on_zero_dim.c - a stand-in for the xtensor adapter
 * (candidates/xtensor/README.md, "What it gets wrong"), whose reshape
 * computes `size() % |product of the shape|` before anything else: the
 * reference, except that infer_shape and execute divide by the product of
 * the shape values when it is 0, an integer division by zero that raises
 * SIGFPE, and answer NOT_SUPPORTED for a 0 with special_zero (xtensor has
 * no copying zero).  `make bench` (bench/crashy.c) runs it over the suite
 * in place of the real adapter, which only `make candidates` builds.
 * Depends on the ABI header and the reference's table, linked in under the
 * name reshape_ref_candidate_v1 (bench/build.mk).
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "reshape_candidate.h"

const reshape_candidate *reshape_ref_candidate_v1(void);

static const reshape_candidate *ref;
static reshape_candidate table;

/* The product of the shape values, 1 when the shape is not a dense 1-D
 * integer tensor this stand-in reads; *zero is set when a value is 0. */
static int64_t product(const reshape_tensor *shape, int *zero)
{
    int64_t p = 1;
    *zero = 0;
    if (!shape || !shape->data || !shape->dims || shape->rank != 1 || shape->dims[0] < 0 ||
        shape->dims[0] > RESHAPE_MAX_RANK)
        return 1;
    for (int64_t i = 0; i < shape->dims[0]; i++) {
        int64_t v;
        if (shape->dtype == RESHAPE_DT_S64)
            v = ((const int64_t *)shape->data)[i];
        else if (shape->dtype == RESHAPE_DT_S32)
            v = ((const int32_t *)shape->data)[i];
        else
            return 1;
        *zero |= v == 0;
        p = (int64_t)((uint64_t)p * (v < 0 ? 0 - (uint64_t)v : (uint64_t)v));
    }
    return p;
}

/* NOT_SUPPORTED for a copying 0, SIGFPE for any other 0, else OK. */
static reshape_status like_xtensor(const reshape_params *params, int64_t size)
{
    int zero;
    volatile int64_t divisor = product(params ? params->shape : NULL, &zero);
    if (zero && params->special_zero)
        return RESHAPE_E_NOT_SUPPORTED;
    volatile int64_t rest = size % divisor;
    (void)rest;
    return RESHAPE_OK;
}

static int64_t volume(const reshape_tensor *t)
{
    int64_t v = 1;
    for (int32_t i = 0; t && t->dims && i < t->rank && i < RESHAPE_MAX_RANK; i++)
        v = (int64_t)((uint64_t)v * (uint64_t)t->dims[i]);
    return v;
}

static reshape_status fpe_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                      int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st = like_xtensor(params, volume(src));
    return st != RESHAPE_OK ? st : ref->infer_shape(params, src, out_rank, out_dims);
}

static reshape_status fpe_execute(const reshape_params *params, const reshape_tensor *src,
                                  const reshape_tensor *dst)
{
    reshape_status st = like_xtensor(params, volume(src));
    return st != RESHAPE_OK ? st : ref->execute(params, src, dst);
}

static pthread_once_t made = PTHREAD_ONCE_INIT;

static void make_table(void)
{
    ref = reshape_ref_candidate_v1();
    table = *ref;
    table.name = "fpe_on_zero_dim";
    table.infer_shape = fpe_infer_shape;
    table.execute = fpe_execute;
}

RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void)
{
    pthread_once(&made, make_table);
    return &table;
}
