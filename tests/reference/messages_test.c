/*
 * messages_test.c - last_error(): NULL after a success, a message in the
 * project's style after a failure (what went wrong first, lowercase, subject
 * in quotes, no full stop), one per thread; and supports(), which answers OK
 * for every configuration the ABI can name.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "support.h"

#define F32 RESHAPE_DT_F32
#define S64 RESHAPE_DT_S64

/* Infers data dims against s64 shape values; returns the status. */
static reshape_status infer(reshape_op op, int32_t special_zero,
                            reshape_dtype dtype, int32_t rank,
                            const int64_t *dims, int32_t count,
                            const int64_t *values)
{
    struct shape_buf shape;
    reshape_tensor src = tensor(dtype, rank, dims, NULL);
    reshape_params p;
    int32_t out_rank;
    int64_t out[RESHAPE_MAX_RANK];

    shape_init(&shape, S64, count, values);
    p = params(op, special_zero, &shape.t);
    return ref()->infer_shape(&p, &src, &out_rank, out);
}

/* Asserts the last error is exactly `want`. */
static void assert_message(const char *want)
{
    const char *got = ref()->last_error();

    cr_assert(got != NULL, "no message, expected \"%s\"", want);
    cr_assert_str_eq(got, want);
}

Test(messages, none_before_any_call)
{
    cr_assert(ref()->last_error() == NULL);
}

Test(messages, none_after_a_success)
{
    cr_assert_eq(infer(OV, 0, F32, DIMS(2, 3), DIMS(6)), RESHAPE_OK);
    cr_assert(ref()->last_error() == NULL);
}

Test(messages, a_success_clears_the_previous_message)
{
    cr_assert_eq(infer(OV, 0, F32, DIMS(2, 3), DIMS(7)),
                 RESHAPE_E_VOLUME_MISMATCH);
    cr_assert(ref()->last_error() != NULL);
    cr_assert_eq(infer(OV, 0, F32, DIMS(2, 3), DIMS(6)), RESHAPE_OK);
    cr_assert(ref()->last_error() == NULL);
}

Test(messages, below_minus_one)
{
    infer(OV, 0, F32, DIMS(6), DIMS(2, -3));
    assert_message("shape value -3 at index 1 is below -1");
}

Test(messages, multiple_minus_one)
{
    infer(OV, 0, F32, DIMS(6), DIMS(-1, 6, -1));
    assert_message("more than one -1 in shape, at index 0 and 2");
}

Test(messages, zero_out_of_range)
{
    infer(OV, 1, F32, DIMS(2, 3), DIMS(0, 0, 0));
    assert_message("copying 0 at index 2 has no input dim (input rank 2)");
}

Test(messages, zero_and_minus_one)
{
    infer(STATIC, 0, F32, DIMS(2, 3), DIMS(0, -1));
    assert_message("-1 at index 1 cannot be inferred next to a 0 dim");
}

Test(messages, not_divisible)
{
    infer(OV, 0, F32, DIMS(2, 3), DIMS(4, -1));
    assert_message("input volume 6 is not divisible by 4, the product of the "
                   "other output dims");
}

Test(messages, volume_mismatch)
{
    infer(OV, 0, F32, DIMS(2, 3), DIMS(7));
    assert_message("output volume 7 differs from input volume 6");
}

Test(messages, data_type)
{
    infer(STATIC, 0, RESHAPE_DT_F64, DIMS(6), DIMS(6));
    assert_message("data type 'f64' is not allowed by "
                   "'onednn_static_reshape_1' (f32, f16, bf16)");
}

Test(messages, overflow)
{
    infer(OV, 0, F32, DIMS(INT64_MAX, 2), DIMS(-1));
    assert_message("volume of the input dims does not fit int64");
}

Test(messages, invalid_argument)
{
    infer(OV, 0, F32, DIMS(2, -3), DIMS(6));
    assert_message("dim -3 at index 1 of 'src' is negative");
}

/* Every message of a battery of failures keeps the style. */
Test(messages, style)
{
    const char *m;
    struct {
        reshape_op op;
        int32_t sz;
        reshape_dtype dt;
        int32_t rank;
        int64_t dims[2];
        int32_t count;
        int64_t values[3];
    } calls[] = {
        {OV, 0, F32, 1, {6}, 2, {2, -3}},
        {OV, 0, F32, 1, {6}, 3, {-1, 6, -1}},
        {OV, 1, F32, 1, {6}, 2, {0, 0}},
        {OV, 0, F32, 1, {6}, 2, {0, -1}},
        {OV, 0, F32, 1, {6}, 2, {4, -1}},
        {OV, 0, F32, 1, {6}, 1, {7}},
        {DYNAMIC, 0, F32, 1, {6}, 1, {6}},
        {STATIC, 0, RESHAPE_DT_U8, 1, {6}, 1, {6}},
        {OV, 0, F32, 2, {INT64_MAX, 3}, 1, {-1}},
        {OV, 0, F32, 1, {6}, 2, {INT64_MAX, 2}},
        {OV, 5, F32, 1, {6}, 1, {6}},
        {OV, 0, F32, 1, {-6}, 1, {6}},
    };

    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        reshape_status st = infer(calls[i].op, calls[i].sz, calls[i].dt,
                                  calls[i].rank, calls[i].dims,
                                  calls[i].count, calls[i].values);
        size_t len;

        cr_assert_neq(st, RESHAPE_OK, "call %zu succeeded", i);
        m = ref()->last_error();
        cr_assert(m != NULL && m[0] != '\0', "call %zu: no message", i);
        len = strlen(m);
        cr_assert(!isupper((unsigned char)m[0]), "capital first: \"%s\"", m);
        cr_assert_neq(m[len - 1], '.', "full stop: \"%s\"", m);
        cr_assert(strchr(m, '\n') == NULL, "newline: \"%s\"", m);
        cr_assert(strstr(m, "\"") == NULL, "double quotes: \"%s\"", m);
    }
}

/* ------------------------------------------------------ one per thread */

struct thread_result {
    reshape_status status;
    char message[256];
    int had_message;
};

static void *succeed_in_thread(void *arg)
{
    struct thread_result *r = arg;
    const char *m;

    r->status = infer(OV, 0, F32, DIMS(2, 3), DIMS(3, 2));
    m = ref()->last_error();
    r->had_message = m != NULL;
    return NULL;
}

static void *fail_in_thread(void *arg)
{
    struct thread_result *r = arg;
    const char *m;

    r->status = infer(OV, 0, F32, DIMS(2, 3), DIMS(5));
    m = ref()->last_error();
    r->had_message = m != NULL;
    if (m != NULL)
        snprintf(r->message, sizeof r->message, "%s", m);
    return NULL;
}

Test(messages, a_success_in_another_thread_keeps_this_threads_message)
{
    pthread_t t;
    struct thread_result r = {0};

    infer(OV, 0, F32, DIMS(6), DIMS(2, -3));
    cr_assert_eq(pthread_create(&t, NULL, succeed_in_thread, &r), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);
    cr_assert_eq(r.status, RESHAPE_OK);
    cr_assert_eq(r.had_message, 0);
    assert_message("shape value -3 at index 1 is below -1");
}

Test(messages, a_failure_in_another_thread_stays_there)
{
    pthread_t t;
    struct thread_result r = {0};

    cr_assert_eq(infer(OV, 0, F32, DIMS(2, 3), DIMS(6)), RESHAPE_OK);
    cr_assert_eq(pthread_create(&t, NULL, fail_in_thread, &r), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);
    cr_assert_eq(r.status, RESHAPE_E_VOLUME_MISMATCH);
    cr_assert_str_eq(r.message, "output volume 5 differs from input volume 6");
    cr_assert(ref()->last_error() == NULL);
}

/* ------------------------------------------------------------ supports */

Test(supports, every_op_dtype_shape_dtype_and_layout)
{
    for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
        for (int dt = 1; dt <= RESHAPE_DT_COUNT; dt++)
            for (int sdt = 1; sdt <= RESHAPE_DT_COUNT; sdt++)
                for (unsigned layout = 0; layout < 8; layout++)
                    cr_assert_eq(ref()->supports((reshape_op)op,
                                                 (reshape_dtype)dt,
                                                 (reshape_dtype)sdt, layout),
                                 RESHAPE_OK, "%s %s %s layout %u",
                                 reshape_op_name((reshape_op)op),
                                 reshape_dtype_name((reshape_dtype)dt),
                                 reshape_dtype_name((reshape_dtype)sdt),
                                 layout);
}

Test(supports, values_outside_the_abi_are_not_supported)
{
    int32_t op99 = 99, dt0 = 0;
    reshape_op op;
    reshape_dtype dt;

    memcpy(&op, &op99, sizeof op);
    memcpy(&dt, &dt0, sizeof dt);
    cr_assert_eq(ref()->supports(op, F32, S64, 0), RESHAPE_E_NOT_SUPPORTED);
    cr_assert_eq(ref()->supports(OV, dt, S64, 0), RESHAPE_E_NOT_SUPPORTED);
    cr_assert_eq(ref()->supports(OV, F32, dt, 0), RESHAPE_E_NOT_SUPPORTED);
    cr_assert_eq(ref()->supports(OV, F32, S64, 64u), RESHAPE_E_NOT_SUPPORTED);
}
