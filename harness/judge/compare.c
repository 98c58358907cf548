/*
 * compare.c - see compare.h.  Depends on fill.h (sub-byte access).
 */
#include "compare.h"

#include <string.h>

#include "suite/suite.h"

int64_t compare_first_byte(const uint8_t *a, const uint8_t *b, uint64_t n)
{
    if (memcmp(a, b, (size_t)n) == 0)
        return -1;
    for (uint64_t k = 0; k < n; k++)
        if (a[k] != b[k])
            return (int64_t)k;
    return -1;
}

int64_t compare_first_element(const uint8_t *a, const uint8_t *b, uint64_t n, unsigned bits)
{
    if (bits >= 8) {
        int64_t k = compare_first_byte(a, b, n * (bits / 8));
        return k < 0 ? -1 : k / (int64_t)(bits / 8);
    }
    uint64_t whole = n * bits / 8;  /* bytes holding only elements */
    int64_t k = compare_first_byte(a, b, whole);
    uint64_t from = k < 0 ? whole * 8 / bits : (uint64_t)k * 8 / bits;
    for (uint64_t i = from; i < n; i++)
        if (subbyte_get(a, i, bits) != subbyte_get(b, i, bits))
            return (int64_t)i;
    return -1;
}

void compare_add_element(strbuf *out, const uint8_t *payload, uint64_t index, unsigned bits)
{
    if (bits == 1) {
        sb_addf(out, "%u", subbyte_get(payload, index, bits));
    } else if (bits == 4) {
        sb_addf(out, "0x%x", subbyte_get(payload, index, bits));
    } else {
        const uint8_t *p = payload + index * (bits / 8);
        for (unsigned k = 0; k < bits / 8; k++)
            sb_addf(out, k ? " %02x" : "%02x", p[k]);
    }
}
