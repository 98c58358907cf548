/*
 * fill.c - payload fills of cases/FORMAT.md.  Depends on libc only.
 */
#include "fill.h"

#include <stdlib.h>
#include <pthread.h>
#include <string.h>

#include "base/base.h"

static inline uint64_t splitmix64_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t splitmix64_next(uint64_t *state)
{
    return splitmix64_mix(*state += 0x9E3779B97F4A7C15ull);
}

/* Stores `v` at `p` least significant byte first. */
static inline void store_le64(uint8_t *p, uint64_t v)
{
    for (int j = 0; j < 8; j++)
        p[j] = (uint8_t)(v >> (8 * j));
}

uint64_t payload_size(uint64_t n, unsigned bits)
{
    if (bits == 0 || n > UINT64_MAX / bits)
        return UINT64_MAX;
    uint64_t b = n * bits;
    return b / 8 + (b % 8 != 0);
}

/* Bytes [off, off + len) of 0, 1, ..., 255, 0, 1, ...: the u8 iota. */
static uint8_t twice[512];
static pthread_once_t twice_once = PTHREAD_ONCE_INIT;

static void twice_init(void)
{
    for (int i = 0; i < 512; i++)
        twice[i] = (uint8_t)i;
}

static void iota8_at(uint8_t *out, uint64_t off, size_t len)
{
    pthread_once(&twice_once, twice_init);  /* slots stage in parallel */
    for (size_t k = 0; k < len;) {
        size_t at = (size_t)((off + k) % 256), n = len - k < 256 ? len - k : 256;
        memcpy(out + k, twice + at, n);
        k += n;
    }
}

void fill_iota(uint8_t *out, uint64_t n, unsigned bits)
{
    switch (bits) {
    case 8:
        iota8_at(out, 0, (size_t)n);
        return;
    case 16:
        for (uint64_t i = 0; i < n; i++) {
            uint16_t v = (uint16_t)i;
            memcpy(out + 2 * i, &v, 2);
        }
        return;
    case 32:
        for (uint64_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)i;
            memcpy(out + 4 * i, &v, 4);
        }
        return;
    case 64:
        for (uint64_t i = 0; i < n; i++)
            memcpy(out + 8 * i, &i, 8);
        return;
    default:
        /* sub-byte: i mod 2^bits in its place, padding bits 0 */
        memset(out, 0, payload_size(n, bits));
        for (uint64_t i = 0; i < n; i++)
            subbyte_put(out, i, bits, (unsigned)i);
        return;
    }
}

void fill_random(uint8_t *out, size_t nbytes, uint64_t seed)
{
    fill_random_at(out, nbytes, seed, 0);
}

void fill_random_at(uint8_t *out, size_t nbytes, uint64_t seed, uint64_t off)
{
    /* splitmix64's state after d draws is seed + d * the increment */
    const uint64_t inc = 0x9E3779B97F4A7C15ull;
    uint64_t state = seed + (off / 8) * inc;
    size_t k = 0;
    unsigned skip = (unsigned)(off % 8);
    if (skip && nbytes) {
        uint64_t draw = splitmix64_mix(state += inc);
        for (unsigned j = skip; j < 8 && k < nbytes; j++)
            out[k++] = (uint8_t)(draw >> (8 * j));
    }
    for (; k + 8 <= nbytes; k += 8)
        store_le64(out + k, splitmix64_mix(state += inc));
    if (k < nbytes) {
        uint64_t draw = splitmix64_mix(state += inc);
        for (unsigned j = 0; k < nbytes; j++)
            out[k++] = (uint8_t)(draw >> (8 * j));
    }
}

void fill_repeat(uint8_t *out, size_t nbytes, const uint8_t *pattern, size_t npattern)
{
    for (size_t k = 0; k < nbytes; k++)
        out[k] = pattern[k % npattern];
}

void fill_payload(const fill *f, uint64_t n, unsigned bits, uint8_t *out)
{
    size_t nbytes = (size_t)payload_size(n, bits);
    switch (f->kind) {
    case FILL_IOTA: fill_iota(out, n, bits); break;
    case FILL_RANDOM: fill_random(out, nbytes, f->seed); break;
    case FILL_REPEAT:
        if (f->nbytes)
            fill_repeat(out, nbytes, f->bytes, f->nbytes);
        else
            memset(out, 0, nbytes);
        break;
    case FILL_HEX:
        memset(out, 0, nbytes);
        memcpy(out, f->bytes, f->nbytes < nbytes ? f->nbytes : nbytes);
        break;
    }
}

/* Byte `b` of the iota payload of `n` elements of `bits` bits. */
static uint8_t iota_byte(uint64_t n, unsigned bits, uint64_t b)
{
    if (bits >= 8) {
        uint64_t w = bits / 8, i = b / w;
        uint8_t e[8];
        switch (bits) {                         /* i mod 2^bits in host byte order */
        case 8: e[0] = (uint8_t)i; break;
        case 16: { uint16_t v = (uint16_t)i; memcpy(e, &v, 2); break; }
        case 32: { uint32_t v = (uint32_t)i; memcpy(e, &v, 4); break; }
        default: memcpy(e, &i, 8); break;
        }
        return e[b % w];
    }
    uint8_t v = 0;
    uint64_t per = 8 / bits;
    for (uint64_t j = 0; j < per && b * per + j < n; j++)
        subbyte_put(&v, j, bits, (unsigned)(b * per + j));
    return v;
}

void fill_payload_at(const fill *f, uint64_t n, unsigned bits, uint64_t off, size_t len,
                     uint8_t *out)
{
    switch (f->kind) {
    case FILL_IOTA:
        if (bits == 8) {
            iota8_at(out, off, len);
        } else {
            for (size_t k = 0; k < len; k++)
                out[k] = iota_byte(n, bits, off + k);
        }
        break;
    case FILL_RANDOM: fill_random_at(out, len, f->seed, off); break;
    case FILL_REPEAT:
        if (!f->nbytes) {
            memset(out, 0, len);
            break;
        }
        for (size_t k = 0, at = (size_t)(off % f->nbytes); k < len; k++) {
            out[k] = f->bytes[at];
            if (++at == f->nbytes)
                at = 0;
        }
        break;
    case FILL_HEX:
        for (size_t k = 0; k < len; k++)
            out[k] = off + k < f->nbytes ? f->bytes[off + k] : 0;
        break;
    }
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int hex_decode(const char *hex, uint8_t **out, size_t *nout, const char **err,
               size_t *err_at)
{
    size_t len = strlen(hex), n = 0;
    uint8_t *buf = xmalloc(len / 2 + 1);
    int high = -1;
    size_t high_at = 0;
    for (size_t i = 0; i < len; i++) {
        if (hex[i] == ' ') {
            if (high >= 0) {
                /* a space may separate bytes, never the digits of one */
                *err = "odd number of hex digits";
                *err_at = high_at;
                free(buf);
                return -1;
            }
            continue;
        }
        int v = hex_value(hex[i]);
        if (v < 0) {
            *err = "bad hex digit";
            *err_at = i;
            free(buf);
            return -1;
        }
        if (high < 0) {
            high = v;
            high_at = i;
        } else {
            buf[n++] = (uint8_t)(high << 4 | v);
            high = -1;
        }
    }
    if (high >= 0) {
        *err = "odd number of hex digits";
        *err_at = high_at;
        free(buf);
        return -1;
    }
    *out = buf;
    *nout = n;
    return 0;
}
