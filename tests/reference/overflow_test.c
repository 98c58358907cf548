/*
 * overflow_test.c - int64 limits in shape inference (DECISIONS.md D8),
 * through infer_shape only: volumes at and past 2^63 - 1, products that
 * overflow, and -1 solved next to huge dims.  The sanitized build runs these
 * too, so any signed overflow in the reference would abort there.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"

#include "support.h"

#define F32 RESHAPE_DT_F32
#define S64 RESHAPE_DT_S64
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define P62 (INT64_C(1) << 62)
#define P32 (INT64_C(1) << 32)
#define P31 (INT64_C(1) << 31)

/* Shapes the reference accepts: infer_shape only (no such buffer).
 * INT64_MAX = 2^63 - 1 = 7 * 7 * 73 * 127 * 337 * 92737 * 649657. */
static struct infer_row fits[] = {
    {"volume exactly INT64_MAX, flattened by -1", OV, 0, F32, 7,
     {7, 7, 73, 127, 337, 92737, 649657}, S64, 1, {-1},
     GIVES(1, INT64_MAX)},
    {"volume INT64_MAX, -1 next to 49", ONNX, 0, F32, 7,
     {7, 7, 73, 127, 337, 92737, 649657}, S64, 2, {49, -1},
     GIVES(2, 49, INT64_MAX / 49)},
    {"volume INT64_MAX into the same dims", STATIC, 0, F32, 1, {INT64_MAX},
     S64, 1, {INT64_MAX}, GIVES(1, INT64_MAX)},
    {"volume INT64_MAX copied by special_zero", ONNX, 1, F32, 3,
     {INT64_MAX, 1, 1}, S64, 3, {0, 0, 0}, GIVES(3, INT64_MAX, 1, 1)},
    {"volume 2^62 from 2^31 * 2^31", OV, 0, F32, 2, {P31, P31}, S64, 2,
     {-1, 2}, GIVES(2, P62 / 2, 2)},
    {"output product exactly INT64_MAX matches", OV, 0, F32, 2,
     {INT64_MAX / 7, 7}, S64, 7, {7, 7, 73, 127, 337, 92737, 649657},
     GIVES(7, 7, 7, 73, 127, 337, 92737, 649657)},
    {"-1 solved to a huge dim", OV, 0, F32, 2, {P62, 1}, S64, 2, {-1, 4},
     GIVES(2, P62 / 4, 4)},
    {"-1 solved to 1 beside a huge known product", OV, 0, F32, 1,
     {INT64_MAX}, S64, 2, {-1, INT64_MAX}, GIVES(2, 1, INT64_MAX)},
    {"huge dims and a 0: volume 0, no overflow", OV, 0, F32, 4,
     {INT64_MAX, INT64_MAX, INT64_MAX, 0}, S64, 2, {INT64_MAX, 0},
     GIVES(2, INT64_MAX, 0)},
    {"a copied huge dim next to a literal 0", OV, 1, F32, 2,
     {INT64_MAX, 0}, S64, 3, {0, 0, INT64_MAX}, GIVES(3, INT64_MAX, 0,
     INT64_MAX)},
};

/* Shapes the reference refuses. */
static struct infer_row refused[] = {
    {"volume INT64_MAX, -1 next to 2 is not a whole number", OV, 0, F32, 1,
     {INT64_MAX}, S64, 2, {2, -1}, FAILS(NOT_DIVISIBLE)},
    {"volume 2^63 from 2^32 * 2^31 overflows", OV, 0, F32, 2, {P32, P31},
     S64, 1, {-1}, FAILS(OVERFLOW)},
    {"volume 2^63 from 2^62 * 2 overflows", OV, 0, F32, 2, {P62, 2}, S64, 2,
     {P62, 2}, FAILS(OVERFLOW)},
    {"volume INT64_MAX * 2 overflows", OV, 0, F32, 2, {INT64_MAX, 2}, S64, 1,
     {-1}, FAILS(OVERFLOW)},
    {"volume INT64_MAX^2 overflows", DYNAMIC, 0, F32, 2,
     {INT64_MAX, INT64_MAX}, RESHAPE_DT_S32, 1, {-1}, FAILS(OVERFLOW)},
    {"volume 3^40 overflows after many small products", OV, 0, F32, 8,
     {243, 243, 243, 243, 243, 243, 243, 243}, S64, 1, {-1},
     FAILS(OVERFLOW)},
    {"output product 2^62 * 2 overflows", OV, 0, F32, 1, {6}, S64, 2,
     {P62, 2}, FAILS(OVERFLOW)},
    {"output product INT64_MAX * INT64_MAX overflows, -1 aside", ONNX, 0,
     F32, 1, {6}, S64, 3, {INT64_MAX, -1, INT64_MAX}, FAILS(OVERFLOW)},
    {"output product INT64_MAX against a smaller volume", OV, 0, F32, 1,
     {6}, S64, 1, {INT64_MAX}, FAILS(VOLUME_MISMATCH)},
};

ParameterizedTestParameters(overflow, fits)
{
    return cr_make_param_array(struct infer_row, fits, COUNT(fits));
}

RowTest(struct infer_row *row, overflow, fits)
{
    check_infer_row(row);
}

ParameterizedTestParameters(overflow, refused)
{
    return cr_make_param_array(struct infer_row, refused, COUNT(refused));
}

RowTest(struct infer_row *row, overflow, refused)
{
    check_infer_row(row);
}

/* Execute refuses the same shapes before it touches any data: src and dst
 * point at a few bytes that must stay as they are. */
ParameterizedTestParameters(overflow, execute_refuses_before_reading)
{
    return cr_make_param_array(struct infer_row, refused, COUNT(refused));
}

RowTest(struct infer_row *row, overflow,
        execute_refuses_before_reading)
{
    check_execute_row(row);
}
