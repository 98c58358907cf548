/*
 * case.h - the case model: one YAML case of cases/FORMAT.md after loading
 * and validation, and the set of all loaded cases.  Depends on the ABI
 * header for dtype, op and status enums.
 */
#ifndef HARNESS_CASE_H
#define HARNESS_CASE_H

#include <stddef.h>
#include <stdint.h>

#include "abuse.h"
#include "reshape_candidate.h"

/* The longest id FORMAT.md allows. */
#define CASE_ID_MAX 120
/* The most values a shape tensor may hold in a case file (the ABI takes at
 * most RESHAPE_MAX_RANK; larger shapes test rule 1 of DECISIONS.md). */
#define CASE_SHAPE_VALUES_MAX 64
/* The most alternatives an `any_of` may list. */
#define CASE_OUTCOMES_MAX 8

/* How a payload is filled (FORMAT.md, "Data"). */
typedef enum fill_kind {
    FILL_IOTA,   /* element i holds i mod 2^bits, padding bits 0 */
    FILL_RANDOM, /* bytes of splitmix64 draws seeded with `seed` */
    FILL_REPEAT, /* `bytes` repeated, cut at the end */
    FILL_HEX     /* `bytes` exactly; nbytes equals the payload size */
} fill_kind;

typedef struct fill {
    fill_kind kind;
    uint64_t seed;
    uint8_t *bytes;
    size_t nbytes;
} fill;

/* One accepted outcome: success with `dims`, or an error status. */
typedef struct outcome {
    int is_error;
    reshape_status error;       /* when is_error */
    int32_t rank;               /* when !is_error */
    int64_t dims[RESHAPE_MAX_RANK];
    int has_data;               /* an explicit expected payload (hex) */
    fill data;
} outcome;

/*
 * A tensor's layout as a case states it (FORMAT.md, "Layouts"): strides in
 * elements, and for the input an element offset into the buffer its data
 * fill defines.  Not `strided`: dense row-major, offset 0.
 */
typedef struct case_layout {
    int strided;
    int64_t strides[RESHAPE_MAX_RANK];
    int64_t offset;
} case_layout;

typedef struct rcase {
    char *id;
    reshape_op op;
    char *clause;
    char *quote;
    char **tags;
    int ntags;

    /* input: the data tensor; its `data` fill defines `storage_elems`
     * elements, the buffer the layout's offsets point into */
    reshape_dtype dtype;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    fill data;
    case_layout src_layout;

    /* dst as the case states it: strides, and for an error-only case its
     * dims (default: the first success's dims, or the input's); in_place:
     * dst->data == src->data (FORMAT.md, "Layouts") */
    case_layout dst_layout;
    int dst_has_dims;
    int32_t dst_rank;
    int64_t dst_dims[RESHAPE_MAX_RANK];
    int in_place;

    /* shape: the target shape tensor; `values` hold each value's bit
     * pattern as a 64-bit two's complement number, `shape_bytes` the
     * values encoded in `shape_dtype`, dense (what the candidate reads). */
    reshape_dtype shape_dtype;
    int32_t shape_rank;
    int64_t shape_dims[RESHAPE_MAX_RANK];
    int nvalues;
    uint64_t values[CASE_SHAPE_VALUES_MAX];
    uint8_t shape_bytes[CASE_SHAPE_VALUES_MAX * 8];
    size_t shape_nbytes;

    int special_zero;
    int infer_only;
    case_abuse abuse;           /* a contract case's deviation, else ABUSE_NONE */
    int generated;

    int noutcomes;
    outcome outcomes[CASE_OUTCOMES_MAX];
    int any_of;                 /* the expectation was written as any_of */
    char *note;

    /* where the case starts; `file` is shared by every case of a file */
    const char *file;
    int line, column;

    /* derived: the input's element count, and its dense payload size in
     * bytes; UINT64_MAX for both when the count does not fit int64 */
    uint64_t volume;
    uint64_t payload_bytes;
    /* derived: the elements and bytes the data fill defines (the volume and
     * payload when the input is dense, else offset + extent), and the most
     * bytes one tensor of the case's own layouts spans (0 without one) */
    uint64_t storage_elems;
    uint64_t storage_bytes;
    uint64_t layout_bytes;
} rcase;

/* A problem in a case file, reported as FILE:LINE:COL: MESSAGE. */
typedef struct load_error {
    char *file;
    int line, column;           /* from 1; 0 when the file has no position */
    char *message;
} load_error;

typedef struct case_set {
    rcase *cases;
    int ncases;
    load_error *errors;
    int nerrors;
    char **files;               /* paths of the case files read, owned */
    int nfiles;
    char cases_sha256[65];      /* over the files read; see case_set.c */
} case_set;

/*
 * Loads one YAML case file per FORMAT.md and appends its valid cases to
 * `set` and every problem to `set->errors` (positions from 1).  A case with
 * any problem is left out; the other cases of the file still load.
 * `text`/`len` is the file's content, `path` its name as shown in messages.
 * Duplicate ids are checked by case_set_load, not here.
 */
void case_load_text(case_set *set, const char *path, const char *text, size_t len);

/*
 * Loads every *.yaml file below each of `paths` (a file or a directory,
 * searched recursively, files in sorted order) into `set`, then rejects
 * duplicate ids (the second and later occurrences are load errors) and
 * computes `cases_sha256`.  A path that cannot be read is a load error.
 */
void case_set_load(case_set *set, const char *const *paths, int npaths);

/* Appends a load error; `line`/`column` from 1 (0: none). */
void case_set_error(case_set *set, const char *file, int line, int column,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Frees everything `set` owns. */
void case_set_free(case_set *set);

/* Describes outcome `o` as "shape [2,3]" or "error VOLUME_MISMATCH". */
char *outcome_describe(const outcome *o);
/* Describes every accepted outcome of `c`, "any of: ..." when several. */
char *case_expected_describe(const rcase *c);
/* Index of the first success outcome of `c`, or -1 when it expects only
 * errors. */
int case_first_success(const rcase *c);
/* Nonzero when every outcome of `c` is an error. */
int case_expects_error_only(const rcase *c);
/* Nonzero when `c` states a layout of its own (input strides, a `dst:` or
 * in_place): it runs as it states, in the dense and infer variants only. */
int case_has_layout(const rcase *c);

#endif
