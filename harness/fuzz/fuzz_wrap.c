/*
 * fuzz_wrap.c - requests whose products wrap in narrow integers: a target
 * shape, or an input, whose positive dims multiply to the other side's
 * volume modulo 2^31, 2^32 or 2^64 but not exactly (fuzz_case.h,
 * fuzz_wrap).  A kernel that counts elements in 32 bits (Arm NN 20.08's
 * TensorShape::GetNumElements(), TfLite's int counts) takes such volumes
 * for equal.  Depends on case.h, fill.h and the ABI header.
 */
#include "fuzz_case.h"

#include "suite/suite.h"

/* One request in this many is made to wrap. */
#define WRAP_ONE_IN 5

/* Odd factors are drawn below this, so that they rarely divide a small
 * volume (which would leave the product exact). */
#define WRAP_FACTOR_LIMIT (UINT64_C(1) << 20)

static uint64_t draw_below(uint64_t *st, uint64_t n)
{
    return splitmix64_next(st) % n;
}

/* The inverse of odd `x` modulo 2^64 (Newton's iteration doubles the
 * correct low bits each step: 3, 6, 12, 24, 48, 96). */
static uint64_t inverse_odd(uint64_t x)
{
    uint64_t y = x;
    for (int i = 0; i < 5; i++)
        y *= 2 - x * y;
    return y;
}

/* `v` modulo 2^bits (bits 1..64). */
static uint64_t mod_pow2(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

/*
 * Two dims in out[0..2), each in 1..INT64_MAX, whose product is `r` modulo
 * 2^bits but not `r` itself: r = 0 gives a power of two split in two
 * (2^bits: OVERFLOW at 64); otherwise an odd x and y = r / x modulo
 * 2^bits.  Returns 0, or -1 when the draws found none.
 */
static int wrap_pair(uint64_t *st, uint64_t r, unsigned bits, int64_t *out)
{
    if (r == 0) {
        unsigned a = 2 + (unsigned)draw_below(st, bits - 3);    /* 2..bits-2 */
        out[0] = INT64_C(1) << a;
        out[1] = INT64_C(1) << (bits - a);
        return 0;
    }
    for (int tries = 0; tries < 8; tries++) {
        uint64_t x = 3 + 2 * draw_below(st, WRAP_FACTOR_LIMIT);
        uint64_t y = mod_pow2(r * inverse_odd(x), bits);
        if (y == 0 || y > (uint64_t)INT64_MAX)
            continue;
        /* the exact product: r itself when x divides r */
        if (y <= (uint64_t)INT64_MAX / x && x * y == r)
            continue;
        out[0] = (int64_t)x;
        out[1] = (int64_t)y;
        return 0;
    }
    return -1;
}

/* The product of the input dims, or -1 past INT64_MAX. */
static int64_t input_volume(const rcase *c)
{
    int64_t v = 1;
    for (int i = 0; i < c->rank; i++)
        if (c->dims[i] == 0)
            return 0;
    for (int i = 0; i < c->rank; i++) {
        if (v > INT64_MAX / c->dims[i])
            return -1;
        v *= c->dims[i];
    }
    return v;
}

/* The wrapping forms of fuzz_wrap. */
enum wrap_form { OUTPUT_WRAPS, OUTPUT_WRAPS_MINUS_ONE, OUTPUT_WRAPS_COPIED_ZERO, INPUT_WRAPS,
                 WRAP_FORMS };

/* Sets c->values to `lead` values then the pair; returns 0. */
static int set_values(rcase *c, const int64_t *lead, int nlead, const int64_t *pair)
{
    c->nvalues = 0;
    for (int i = 0; i < nlead; i++)
        c->values[c->nvalues++] = (uint64_t)lead[i];
    c->values[c->nvalues++] = (uint64_t)pair[0];
    c->values[c->nvalues++] = (uint64_t)pair[1];
    return 0;
}

static int apply_form(uint64_t *st, rcase *c, enum wrap_form form, unsigned bits)
{
    int64_t volume = input_volume(c), pair[2];
    if (volume < 0)
        return -1;
    switch (form) {
    case OUTPUT_WRAPS:
        /* [x, y], x * y = volume modulo 2^bits */
        return wrap_pair(st, (uint64_t)volume, bits, pair) ? -1 : set_values(c, NULL, 0, pair);
    case OUTPUT_WRAPS_MINUS_ONE: {
        /* [-1, x, y], x * y = 1 modulo 2^bits (0 for an empty input): a
         * 32-bit count solves the -1 to the whole volume */
        static const int64_t lead[1] = {-1};
        return wrap_pair(st, volume ? 1 : 0, bits, pair) ? -1 : set_values(c, lead, 1, pair);
    }
    case OUTPUT_WRAPS_COPIED_ZERO: {
        /* [0, x, y] copying dims[0]: dims[0] * x * y = volume modulo 2^bits */
        static const int64_t lead[1] = {0};
        if (c->rank < 1 || c->dims[0] == 0)
            return -1;
        if (wrap_pair(st, (uint64_t)(volume / c->dims[0]), bits, pair))
            return -1;
        c->special_zero = 1;
        return set_values(c, lead, 1, pair);
    }
    case INPUT_WRAPS: {
        /* input dims [x, y] whose volume is the target's modulo 2^bits; a
         * volume of 2^64 would leave int64, so only 2^31 and 2^32 */
        int64_t target = 1;
        for (int i = 0; i < c->nvalues; i++) {
            int64_t v = (int64_t)c->values[i];
            if (v < 1 || v > 1 << 20)
                return -1;
            target *= v;
        }
        if (bits > 32 || target > 1 << 20 || wrap_pair(st, (uint64_t)target, bits, pair))
            return -1;
        c->rank = 2;
        c->dims[0] = pair[0];
        c->dims[1] = pair[1];
        return 0;
    }
    case WRAP_FORMS:
        break;
    }
    return -1;
}

void fuzz_wrap(rcase *c, uint64_t seed)
{
    static const unsigned moduli[3] = {31, 32, 64};
    /* a stream of its own, so that the other draws of `seed` stay as
     * they were */
    uint64_t st = seed ^ UINT64_C(0x5772617073323634);
    if (draw_below(&st, WRAP_ONE_IN) != 0)
        return;
    enum wrap_form form = (enum wrap_form)draw_below(&st, WRAP_FORMS);
    rcase saved = *c;
    if (apply_form(&st, c, form, moduli[draw_below(&st, 3)]) != 0)
        *c = saved;
}
