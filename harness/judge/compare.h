/*
 * compare.h - byte-exact comparison of payloads: the first differing
 * element and how to show it.  Bytes decide, never values: -0.0 and 0.0
 * differ, two NaNs with the same payload are equal, NaNs with different
 * payloads differ.  Depends on util.h (strbuf).
 */
#ifndef HARNESS_COMPARE_H
#define HARNESS_COMPARE_H

#include <stdint.h>

#include "base/base.h"

/* Row-major index of the first of `n` elements of `bits` bits whose bits
 * differ between the dense payloads `a` and `b`, or -1 when all are equal.
 * Padding bits of a sub-byte payload's last byte are not elements and are
 * not compared here. */
int64_t compare_first_element(const uint8_t *a, const uint8_t *b, uint64_t n, unsigned bits);

/* Appends element `index` of `payload` as the bytes of its storage in hex,
 * lowest address first ("00 00 80 3f"), or for a sub-byte element its value
 * ("0x3" for u4/s4, "1" for u1). */
void compare_add_element(strbuf *out, const uint8_t *payload, uint64_t index, unsigned bits);

/* Offset of the first byte that differs between `a` and `b` (n bytes), or
 * -1. */
int64_t compare_first_byte(const uint8_t *a, const uint8_t *b, uint64_t n);

#endif
