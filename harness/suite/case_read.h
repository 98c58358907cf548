/*
 * case_read.h - what the case loader's files share, private to suite/:
 * the reader context of one YAML file (libyaml's document API), its
 * problem reports (file:line:column, from 1; the case is then left out),
 * the typed node readers of case_read.c, and each section's reader
 * (case_data.c: `input:`, case_shape.c: `shape:`, case_expect.c:
 * `expect:`, case_layout.c: `dst:` and `in_place:`).  Depends on libyaml, case.h and fill.h.
 */
#ifndef HARNESS_CASE_READ_H
#define HARNESS_CASE_READ_H

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "reshape_candidate.h"
#include "case.h"
#include "fill.h"

/* Reading one YAML file: the set its cases and problems go to, the file's
 * path (for problem reports), the document being read. */
typedef struct ctx {
    case_set *set;
    const char *path;
    yaml_document_t *doc;
    int bad;            /* the case being read has a problem */
} ctx;

/* Reports a problem at `node` (case_set_error, at its line and column from
 * 1, printf-style) and marks the case being read bad. */
void case_problem(ctx *x, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The node of index `index` in the document (libyaml), or NULL. */
yaml_node_t *case_node_at(ctx *x, int index);

/* The text of scalar node `n`. */
const char *case_scalar(const yaml_node_t *n);

/* "a scalar", "a list", "a mapping" or "nothing": for problems. */
const char *case_kind_name(const yaml_node_t *n);

/* 1 when `n` is a scalar; else a problem ("'field' must be `what`") and 0. */
int case_want_scalar(ctx *x, const yaml_node_t *n, const char *field, const char *what);

/* A scalar into *out (allocated).  Returns 1, or 0 after a problem. */
int case_get_string(ctx *x, const yaml_node_t *n, const char *field, char **out);

/* A plain true/True/TRUE or false/False/FALSE into *out.  Returns 1, or 0
 * after a problem (quoted or other words are refused). */
int case_get_bool(ctx *x, const yaml_node_t *n, const char *field, int *out);

/*
 * Reads a plain decimal integer (an optional '-', then digits with no
 * leading zero) into *neg and *mag, its sign and magnitude.  Quoted
 * scalars, hex, octal, underscores and floats are refused: FORMAT.md wants
 * plain YAML integers, and YAML 1.1 would read "010" as octal.
 */
int case_get_integer(ctx *x, const yaml_node_t *n, const char *field, int *neg, uint64_t *mag);

/* A signed integer in [lo, hi] into *out.  Returns 1, or 0 after a problem. */
int case_get_int_in(ctx *x, const yaml_node_t *n, const char *field, int64_t lo, int64_t hi,
                    int64_t *out);

/* A list of `rank` strides, integers >= 0 (in elements).  Returns 1, or 0
 * after a problem (another count included). */
int case_get_strides(ctx *x, const yaml_node_t *n, const char *field, int32_t rank,
                     int64_t *strides);

/* A dtype name (reshape_dtype_name) into *out.  Returns 1, or 0 after a
 * problem. */
int case_get_dtype(ctx *x, const yaml_node_t *n, const char *field, reshape_dtype *out);

/* 1 when `s` is 1 to `max` characters of [a-z0-9_] (ids and tags). */
int case_is_word(const char *s, size_t max);

/*
 * Walks the pairs of mapping `n`, checking that keys are scalars, known
 * (listed in `keys`) and not repeated.  Stores each value node in `vals`
 * at the key's index (NULL when absent).  Returns 0 if `n` is no mapping.
 */
int case_read_mapping(ctx *x, const yaml_node_t *n, const char *what,
                      const char *const *keys, int nkeys, yaml_node_t **vals);

/* 1 when value `v` of required key `key` in `what` is there; else a
 * problem at `where` and 0. */
int case_require(ctx *x, const yaml_node_t *where, yaml_node_t *v, const char *key,
                 const char *what);

/* A list of dims: integers >= 0, at most RESHAPE_MAX_RANK of them. */
int case_get_dims(ctx *x, const yaml_node_t *n, const char *field, int32_t *rank, int64_t *dims);

/* The element count of dims, or UINT64_MAX when it does not fit int64.
 * A 0 dim makes it 0 whatever the others (DECISIONS.md D8). */
uint64_t case_volume_of(int32_t rank, const int64_t *dims);

/* Hex digits into f's bytes (hex_decode).  Returns 1, or 0 after a problem
 * naming the character at fault. */
int case_get_hex(ctx *x, const yaml_node_t *n, const char *field, fill *f);

/* `input:` of case `c` (case_data.c); problems mark the case bad. */
void case_read_input(ctx *x, const yaml_node_t *n, rcase *c);

/* `shape:` of case `c` (case_shape.c); problems mark the case bad. */
void case_read_shape(ctx *x, const yaml_node_t *n, rcase *c);

/* `expect:` of case `c` (case_expect.c); problems mark the case bad. */
void case_read_expect(ctx *x, const yaml_node_t *n, rcase *c);

/* `dst:` and `in_place:` of case `c` (either node may be NULL), checked
 * with the input's layout against the rules of DECISIONS.md D12 and the
 * case's expectation, which is read before (case_layout.c). */
void case_read_layout(ctx *x, const yaml_node_t *case_node, yaml_node_t *dst,
                      yaml_node_t *in_place, rcase *c);

#endif
