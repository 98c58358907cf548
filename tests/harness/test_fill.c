/*
 * test_fill.c - payload fills of cases/FORMAT.md: splitmix64 known values,
 * iota on sub-byte types, repeat, hex.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

Test(fill, splitmix64_known_values)
{
    /* seed 0: the published first outputs of splitmix64 */
    uint64_t s = 0;
    cr_expect_eq(splitmix64_next(&s), 0xE220A8397B1DCDAFull);
    cr_expect_eq(splitmix64_next(&s), 0x6E789E6AA1B965F4ull);
    cr_expect_eq(splitmix64_next(&s), 0x06C45D188009454Full);
    /* seed 1234567 */
    s = 1234567;
    cr_expect_eq(splitmix64_next(&s), 0x599ED017FB08FC85ull);
}

Test(fill, random_bytes_are_little_endian_draws)
{
    uint8_t b[10];
    fill_random(b, sizeof b, 0);
    cr_expect_eq(b[0], 0xAF);
    cr_expect_eq(b[7], 0xE2);
    cr_expect_eq(b[8], 0xF4);
    cr_expect_eq(b[9], 0x65);
}

Test(fill, iota_u4_low_nibble_first_padding_zero)
{
    uint8_t b[3];
    memset(b, 0xFF, sizeof b);
    fill_iota(b, 5, 4);
    cr_expect_eq(b[0], 0x10);
    cr_expect_eq(b[1], 0x32);
    cr_expect_eq(b[2], 0x04, "padding nibble must be 0, got 0x%02x", b[2]);
}

Test(fill, iota_u4_wraps_at_16)
{
    uint8_t b[9];
    fill_iota(b, 18, 4);
    cr_expect_eq(b[8], 0x10);  /* elements 16 and 17 hold 0 and 1 */
}

Test(fill, iota_u1_most_significant_bit_first)
{
    uint8_t b[2];
    memset(b, 0xFF, sizeof b);
    fill_iota(b, 10, 1);
    cr_expect_eq(b[0], 0x55);  /* 0,1,0,1,0,1,0,1 */
    cr_expect_eq(b[1], 0x40);  /* 0,1 then six padding zeros */
}

Test(fill, iota_s16_host_order)
{
    uint8_t b[4];
    fill_iota(b, 2, 16);
    uint16_t v[2];
    memcpy(v, b, 4);
    cr_expect_eq(v[0], 0);
    cr_expect_eq(v[1], 1);
}

Test(fill, iota_u8_wraps_at_256)
{
    uint8_t b[258];
    fill_iota(b, 258, 8);
    cr_expect_eq(b[255], 255);
    cr_expect_eq(b[256], 0);
    cr_expect_eq(b[257], 1);
}

Test(fill, repeat_is_cut_at_the_end)
{
    uint8_t b[5], pat[] = {0xAB, 0xCD};
    fill_repeat(b, sizeof b, pat, sizeof pat);
    cr_expect_eq(b[3], 0xCD);
    cr_expect_eq(b[4], 0xAB);
}

Test(fill, payload_size_rounds_up_and_detects_overflow)
{
    cr_expect_eq(payload_size(5, 4), 3);
    cr_expect_eq(payload_size(9, 1), 2);
    cr_expect_eq(payload_size(0, 32), 0);
    cr_expect_eq(payload_size(UINT64_MAX / 2, 64), UINT64_MAX);
}

Test(fill, hex_spaces_between_bytes)
{
    uint8_t *out;
    size_t n, at;
    const char *err;
    cr_assert_eq(hex_decode("00 ff 1A", &out, &n, &err, &at), 0);
    cr_expect_eq(n, 3);
    cr_expect_eq(out[1], 0xFF);
    cr_expect_eq(out[2], 0x1A);
    free(out);
}

Test(fill, hex_rejects_odd_digits_and_bad_characters)
{
    uint8_t *out;
    size_t n, at;
    const char *err;
    cr_expect_eq(hex_decode("abc", &out, &n, &err, &at), -1);
    cr_expect_str_eq(err, "odd number of hex digits");
    cr_expect_eq(hex_decode("a bc", &out, &n, &err, &at), -1);
    cr_expect_str_eq(err, "odd number of hex digits");
    cr_expect_eq(hex_decode("0g", &out, &n, &err, &at), -1);
    cr_expect_str_eq(err, "bad hex digit");
    cr_expect_eq(at, 1);
}
