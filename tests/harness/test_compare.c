/*
 * test_compare.c - the byte comparator decides by bytes, never by value:
 * -0.0 and 0.0 differ, the same NaN equals itself, NaNs with different
 * payloads differ; sub-byte elements compare by their bits only.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/compare.h"

Test(compare, negative_zero_differs_from_zero)
{
    float a[2] = {1.0f, 0.0f}, b[2] = {1.0f, -0.0f};
    cr_expect_eq(compare_first_element((uint8_t *)a, (uint8_t *)b, 2, 32), 1);
}

Test(compare, identical_nans_are_equal)
{
    uint32_t bits = 0x7FC01234u;
    float a[1], b[1];
    memcpy(a, &bits, 4);
    memcpy(b, &bits, 4);
    cr_assert(isnan(a[0]));
    cr_expect_eq(compare_first_element((uint8_t *)a, (uint8_t *)b, 1, 32), -1);
}

Test(compare, nans_with_different_payloads_differ)
{
    uint32_t x = 0x7FC00001u, y = 0x7FC00002u;
    cr_expect_eq(compare_first_element((uint8_t *)&x, (uint8_t *)&y, 1, 32), 0);
}

Test(compare, bf16_first_differing_element)
{
    uint16_t a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 5};
    cr_expect_eq(compare_first_element((uint8_t *)a, (uint8_t *)b, 4, 16), 3);
}

Test(compare, u4_padding_nibble_is_not_an_element)
{
    uint8_t a[2] = {0x21, 0x03}, b[2] = {0x21, 0xF3};
    cr_expect_eq(compare_first_element(a, b, 3, 4), -1);
    b[1] = 0xF4;
    cr_expect_eq(compare_first_element(a, b, 3, 4), 2);
}

Test(compare, u1_element_by_bit)
{
    uint8_t a[2] = {0x80, 0x00}, b[2] = {0x80, 0x40};
    cr_expect_eq(compare_first_element(a, b, 10, 1), 9);
}

Test(compare, element_shown_as_bytes)
{
    float f = 1.0f;
    strbuf s;
    sb_init(&s);
    compare_add_element(&s, (uint8_t *)&f, 0, 32);
    cr_expect_str_eq(s.s, "00 00 80 3f");
    free(s.s);
    uint8_t n[1] = {0xA7};
    sb_init(&s);
    compare_add_element(&s, n, 1, 4);
    cr_expect_str_eq(s.s, "0xa");
    free(s.s);
}
