/*
 * comparator_test.c - the byte comparator every other test relies on,
 * checked first on the values where comparing floats as values would lie:
 * -0.0 against 0.0, and NaN against NaN.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "support.h"

Test(comparator, negative_zero_differs_from_zero)
{
    double a = -0.0, b = 0.0;

    cr_assert(a == b); /* as values they are equal ... */
    cr_assert_eq(first_difference(&a, &b, sizeof a) < sizeof a, 1,
                 "... as bytes they must differ");
}

Test(comparator, nan_equals_nan_with_the_same_bits)
{
    double a = NAN, b;

    memcpy(&b, &a, sizeof b);
    cr_assert(a != b); /* as values a NaN never equals itself ... */
    cr_assert_eq(first_difference(&a, &b, sizeof a), sizeof a,
                 "... as bytes the same NaN is equal");
}

Test(comparator, nans_with_different_payloads_differ)
{
    uint32_t a = 0x7FC00001u, b = 0x7FC00002u;

    cr_assert_eq(first_difference(&a, &b, sizeof a) < sizeof a, 1);
}

Test(comparator, names_the_first_differing_byte)
{
    unsigned char a[5] = {1, 2, 3, 4, 5}, b[5] = {1, 2, 9, 4, 7};

    cr_assert_eq(first_difference(a, b, 5), 2);
    cr_assert_eq(first_difference(a, a, 5), 5);
    cr_assert_eq(first_difference(a, b, 0), 0);
}
