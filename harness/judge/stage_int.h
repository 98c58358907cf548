/*
 * stage_int.h - what the staging files share, private to judge/: stage.c
 * (a job's request, dst, the threads and infer variants) calls stage_src.c
 * (src's buffer and the elements a success must write), and both call
 * stage_buf.c (placing, canaries, complements, room).  Depends on stage.h.
 */
#ifndef HARNESS_STAGE_INT_H
#define HARNESS_STAGE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "stage.h"

/* Bytes of canaries staged right before dst and before src. */
#define CANARY_NEAR 64

/* Makes `b` hold `n` bytes (its content is lost when it grows). */
void stage_need(bytes *b, size_t n);

/*
 * Where data of `span` bytes goes in an area [area, area + size): its end
 * within 64 bytes of the area's end (the guard page), its start aligned to
 * 64, or for `misaligned` at an address that is 1 mod 16.
 */
size_t stage_place(size_t area, size_t size, uint64_t span, int misaligned);

/* Writes canary stream `seed` (stream offset 0 at `lo`) into arena
 * [off, off + len). */
void stage_canaries(arena *a, size_t lo, size_t off, size_t len, uint64_t seed);

/* dst[k] = ~src[k] for k < n, eight bytes at a time. */
void stage_complement(uint8_t *dst, const uint8_t *src, size_t n);

/* src for an out-of-place call (s->src_l laid out, s->dst_bytes known):
 * placed in its area (`mis`: at 1 mod 16), its buffer as stage_src_image
 * makes it, and the bytes around it. */
void stage_src(stage *s, arena *a, const rcase *c, int mis);

/*
 * The elements a success must write, in row-major order, for src as
 * staged: src itself when it is dense and read as it is, else gathered by
 * their offsets into s->payload (D12: "Each element is read from its own
 * offset"; a contract case's abuse of src's strides counts).
 */
const uint8_t *stage_expected(stage *s, const arena *a, const rcase *c);

#endif
