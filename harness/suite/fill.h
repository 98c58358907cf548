/*
 * fill.h - payload bytes as cases/FORMAT.md ("Data") defines them, and the
 * sub-byte element access of the ABI header.  The harness computes every
 * expected byte with these, never by calling the reference.  Depends on
 * case.h for `fill` only.
 */
#ifndef HARNESS_FILL_H
#define HARNESS_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"

/* One splitmix64 draw: adds 0x9E3779B97F4A7C15 to *state, then mixes.  The
 * first draw of a generator seeded with 0 is 0xE220A8397B1DCDAF. */
uint64_t splitmix64_next(uint64_t *state);

/* ceil(n * bits / 8): the dense payload size of `n` elements of `bits` bits,
 * or UINT64_MAX when it does not fit. */
uint64_t payload_size(uint64_t n, unsigned bits);

/* Element `i` holds i mod 2^bits in its place (host byte order; u4/s4 low
 * nibble first, u1 most significant bit first); every other bit, the
 * padding of the last byte included, is 0.  `out` holds
 * payload_size(n, bits) bytes. */
void fill_iota(uint8_t *out, uint64_t n, unsigned bits);

/* Byte k is byte (k mod 8), little-endian, of draw (k div 8) of splitmix64
 * seeded with `seed`. */
void fill_random(uint8_t *out, size_t nbytes, uint64_t seed);

/* Bytes [off, off + nbytes) of the stream fill_random(seed) writes, without
 * the bytes before them: out[k] is byte off + k of that stream. */
void fill_random_at(uint8_t *out, size_t nbytes, uint64_t seed, uint64_t off);

/* `pattern` (npattern > 0 bytes) repeated to fill `nbytes`, cut at the end. */
void fill_repeat(uint8_t *out, size_t nbytes, const uint8_t *pattern, size_t npattern);

/* Writes the payload of `n` elements of `bits` bits that `f` defines into
 * `out` (payload_size(n, bits) bytes).  For FILL_HEX the byte counts must
 * already agree (the loader checks). */
void fill_payload(const fill *f, uint64_t n, unsigned bits, uint8_t *out);

/*
 * Bytes [off, off + len) of the payload fill_payload(f, n, bits) writes,
 * into out[0..len), without the rest: lets a large payload be written or
 * checked a piece at a time.  off + len <= payload_size(n, bits).
 */
void fill_payload_at(const fill *f, uint64_t n, unsigned bits, uint64_t off, size_t len,
                     uint8_t *out);

/*
 * Decodes HEX (two hex digits a byte, spaces allowed between bytes) into a
 * new buffer.  Returns 0, or -1 with *err set to a static message ("odd
 * number of hex digits", "bad hex digit") and *err_at to the offending
 * character's index.
 */
int hex_decode(const char *hex, uint8_t **out, size_t *nout, const char **err,
               size_t *err_at);

/* Element at element offset `off` of a packed sub-byte buffer (`bits` 1 or
 * 4), as the ABI packs it. */
static inline unsigned subbyte_get(const uint8_t *buf, uint64_t off, unsigned bits)
{
    if (bits == 4)
        return (buf[off / 2] >> ((off % 2) * 4)) & 0xFu;
    return (buf[off / 8] >> (7 - off % 8)) & 1u;
}

/* Stores `v` (its low `bits` bits) at element offset `off`; the other bits
 * of the byte are kept. */
static inline void subbyte_put(uint8_t *buf, uint64_t off, unsigned bits, unsigned v)
{
    if (bits == 4) {
        unsigned shift = (unsigned)(off % 2) * 4;
        buf[off / 2] = (uint8_t)((buf[off / 2] & ~(0xFu << shift)) | ((v & 0xFu) << shift));
    } else {
        unsigned shift = 7 - (unsigned)(off % 8);
        buf[off / 8] = (uint8_t)((buf[off / 8] & ~(1u << shift)) | ((v & 1u) << shift));
    }
}

#endif
