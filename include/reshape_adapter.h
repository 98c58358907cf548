/*
 * reshape_adapter.h - the adapter kit: what every candidate that wraps a
 * library's reshape needs besides the library itself.  Header-only; compiles
 * as C11 and as C++17 (GCC or Clang: it uses their overflow builtins).
 * Depends on reshape_candidate.h, libc and pthreads (pthread_once).
 *
 * It holds the ABI's argument checks (reshape_candidate.h: NULLs, ranks,
 * enums, negative dims and strides, the dst a call must agree with, the
 * 2^63-bit bound, in place, and the layout rules of D12: broadcast src
 * allowed, size-1 strides ignored, empty tensors, overlapping dst refused),
 * the RESHAPE_LAYOUT_* flags of a call, and helpers: the calling thread's
 * last_error with printf-style text, dtype maps, volumes and extents, and
 * reading a shape tensor into a list of integers.
 *
 * The kit decides no spec rule: which types an operation allows, what -1
 * and a copying 0 mean, when volumes disagree, are for the library to
 * decide, because that is what is certified.  Its checks answer
 * RESHAPE_E_INVALID_ARGUMENT (caller misuse, the ABI's own rules), its
 * helpers RESHAPE_E_NOT_SUPPORTED (what a library cannot be handed).
 *
 * A typical execute:
 *     if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK)
 *         return st;
 *     ... the library infers the output dims into rank/dims ...
 *     if ((st = reshape_adapter_check_dst(src, dst, rank, dims)) != RESHAPE_OK)
 *         return st;
 *     ... the library copies ...
 * and the table and its exported entry come from RESHAPE_ADAPTER_DEFINE.
 * The kit is three headers: this one (messages, layouts, dtype maps, the
 * table), reshape_adapter_tensor.h (facts about a tensor: extent, overlap,
 * layout flags) and reshape_adapter_args.h (the argument checks and shape
 * lists); including this one includes the others.
 *
 * Every function is static inline, so each translation unit has its own
 * message buffer: call reshape_adapter_fail and reshape_adapter_last_error
 * from the file that holds the candidate table.
 */
#ifndef RESHAPE_ADAPTER_H
#define RESHAPE_ADAPTER_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reshape_candidate.h"
#include "reshape_adapter_tensor.h"

#ifdef __cplusplus
#define RESHAPE_ADAPTER_THREAD_LOCAL thread_local
#else
#define RESHAPE_ADAPTER_THREAD_LOCAL _Thread_local
#endif
#define RESHAPE_ADAPTER_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* reshape_adapter_enum_value reads an enum field as an int. */
#ifdef __cplusplus
static_assert(sizeof(reshape_op) == sizeof(int) && sizeof(reshape_dtype) == sizeof(int),
              "the ABI's enums are ints");
#else
_Static_assert(sizeof(reshape_op) == sizeof(int) && sizeof(reshape_dtype) == sizeof(int),
               "the ABI's enums are ints");
#endif

/* The number of entries of an array, for dtype maps. */
#define RESHAPE_ADAPTER_COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* ================================================================ messages */

/* The calling thread's message: lowercase, the subject in quotes, no full
 * stop.  512 bytes; longer text is cut. */
static inline char *reshape_adapter_message_(void)
{
    static RESHAPE_ADAPTER_THREAD_LOCAL char message[512];
    return message;
}

/* Records a printf-style message for the calling thread and returns
 * `status` unchanged, so `return reshape_adapter_fail(...)` is one step.
 * An argument may not point into the message itself (copy
 * reshape_adapter_last_error() first). */
static inline reshape_status reshape_adapter_fail(reshape_status status,
                                                  const char *fmt, ...)
    RESHAPE_ADAPTER_PRINTF(2, 3);
static inline reshape_status reshape_adapter_fail(reshape_status status,
                                                  const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(reshape_adapter_message_(), 512, fmt, ap);
    va_end(ap);
    return status;
}

/* Forgets the calling thread's message; the check functions below call it,
 * so an entry point that starts with one of them needs no other. */
static inline void reshape_adapter_clear_error(void)
{
    reshape_adapter_message_()[0] = '\0';
}

/* The ABI's last_error: the calling thread's message, or NULL. */
static inline const char *reshape_adapter_last_error(void)
{
    const char *m = reshape_adapter_message_();
    return m[0] != '\0' ? m : NULL;
}

/* ===================================================== names and layouts */

/* reshape_dtype_name(dtype), or "?" outside the enum (for messages). */
static inline const char *reshape_adapter_dtype_name(reshape_dtype dtype)
{
    const char *name = reshape_dtype_name(dtype);
    return name != NULL ? name : "?";
}

/* The int an enum field holds, read without loading it as the enum: in C++
 * loading a value outside an enum's range (a hostile op of 9) is undefined,
 * and the checks must see such values to refuse them. */
static inline int reshape_adapter_enum_value(const void *field)
{
    int value;
    memcpy(&value, field, sizeof value);
    return value;
}

/* Every layout of host memory the ABI defines, for a library that takes
 * any strides: the `handled` of reshape_adapter_check_layout. */
#define RESHAPE_ADAPTER_ANY_STRIDES                                             \
    (RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_STRIDED_DST | RESHAPE_LAYOUT_IN_PLACE | \
     RESHAPE_LAYOUT_BROADCAST_SRC | RESHAPE_LAYOUT_SIZE1_STRIDES)

/*
 * The start of supports(), and a layout check in execute(): clears the
 * message; RESHAPE_OK when `op` is in the enum and every flag of `layout`
 * is in `handled`, else NOT_SUPPORTED with the message "<why>: layout
 * strided_src|broadcast_src cannot be expressed" naming the flags outside
 * `handled` (unknown bits in hex).  `why` says what the library takes,
 * e.g. "xnnpack tensors are dense".
 */
static inline reshape_status reshape_adapter_check_layout(int op, unsigned layout,
                                                          unsigned handled,
                                                          const char *why)
{
    static const char *const names[] = {"strided_src", "strided_dst", "in_place",
                                         "broadcast_src", "size1_strides", "device"};
    char text[160] = "";
    unsigned extra = layout & ~handled;

    reshape_adapter_clear_error();
    if (op < 1 || op > RESHAPE_OP_COUNT)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "unknown op %d", op);
    if (extra == 0)
        return RESHAPE_OK;
    for (unsigned bit = 0; bit < 32; bit++) {
        if (!(extra & (1u << bit)))
            continue;
        size_t used = strlen(text);
        if (bit < RESHAPE_ADAPTER_COUNT(names))
            snprintf(text + used, sizeof text - used, "%s%s", used ? "|" : "", names[bit]);
        else
            snprintf(text + used, sizeof text - used, "%s0x%x", used ? "|" : "", 1u << bit);
    }
    return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "%s: layout %s cannot be expressed",
                                why, text);
}

/* ============================================================= dtype maps */

/* One entry of a dtype map: an ABI dtype and the library's type for it. */
typedef struct reshape_adapter_type {
    reshape_dtype dtype;
    int type;
} reshape_adapter_type;

/* Looks `dtype` up in `map` (`count` entries) into *type.  RESHAPE_OK, or
 * NOT_SUPPORTED with *type 0 and the message "<none> for '<dtype>'", where
 * `none` says so in the library's words ("numpy has no dtype"). */
static inline reshape_status reshape_adapter_map_dtype(const reshape_adapter_type *map,
                                                       size_t count, reshape_dtype dtype,
                                                       const char *none, int *type)
{
    *type = 0;
    for (size_t i = 0; i < count; i++)
        if (map[i].dtype == dtype) {
            *type = map[i].type;
            return RESHAPE_OK;
        }
    return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "%s for '%s'", none,
                                reshape_adapter_dtype_name(dtype));
}

/* For a library whose elements are objects of whole bytes (a C or C++
 * type per width): RESHAPE_OK for a dtype of 8 bits or more, else
 * NOT_SUPPORTED with the message "<why>; '<dtype>' has no such type",
 * e.g. why = "xtensor holds C++ objects". */
static inline reshape_status reshape_adapter_whole_bytes(reshape_dtype dtype, const char *why)
{
    if (reshape_dtype_bits(dtype) >= 8)
        return RESHAPE_OK;
    return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "%s; '%s' has no such type", why,
                                reshape_adapter_dtype_name(dtype));
}

/* ================================================================== table */

#ifdef __cplusplus
#define RESHAPE_ADAPTER_C_LINKAGE extern "C"
#else
#define RESHAPE_ADAPTER_C_LINKAGE
#endif

#define RESHAPE_ADAPTER_TABLE_(name, version, supports, infer_shape, execute, limits)   \
    static const reshape_candidate reshape_adapter_table_ = {                          \
        RESHAPE_ABI_VERSION, sizeof(reshape_candidate), name, version, supports,        \
        infer_shape, execute, reshape_adapter_last_error, limits, NULL};

/*
 * Defines the candidate table and the one exported symbol,
 * reshape_candidate_v1, returning it: `name` and `version` static strings,
 * the three entry points, `limits` a `const reshape_limits *` or NULL;
 * last_error is the kit's; no device.  Use once, at file scope (outside any
 * namespace).
 */
#define RESHAPE_ADAPTER_DEFINE(name, version, supports, infer_shape, execute, limits)   \
    RESHAPE_ADAPTER_TABLE_(name, version, supports, infer_shape, execute, limits)       \
    RESHAPE_ADAPTER_C_LINKAGE RESHAPE_EXPORT const reshape_candidate *                  \
    reshape_candidate_v1(void)                                                          \
    {                                                                                   \
        return &reshape_adapter_table_;                                                 \
    }

/*
 * RESHAPE_ADAPTER_DEFINE with a start: `start(char *version, size_t size)`
 * runs once (pthread_once) in reshape_candidate_v1, that is when the
 * harness loads the candidate, outside any request's time budget.  It
 * writes the version to report into `version` (64 bytes), asked of the
 * library that is loaded, and may start a library that is slow to start.
 */
#define RESHAPE_ADAPTER_DEFINE_LOADED(name, start, supports, infer_shape, execute,       \
                                      limits)                                          \
    static char reshape_adapter_version_[64];                                          \
    static pthread_once_t reshape_adapter_version_once_ = PTHREAD_ONCE_INIT;            \
    static void reshape_adapter_read_version_(void)                                     \
    {                                                                                   \
        start(reshape_adapter_version_, sizeof reshape_adapter_version_);               \
    }                                                                                   \
    RESHAPE_ADAPTER_TABLE_(name, reshape_adapter_version_, supports, infer_shape,       \
                           execute, limits)                                             \
    RESHAPE_ADAPTER_C_LINKAGE RESHAPE_EXPORT const reshape_candidate *                  \
    reshape_candidate_v1(void)                                                          \
    {                                                                                   \
        pthread_once(&reshape_adapter_version_once_, reshape_adapter_read_version_);    \
        return &reshape_adapter_table_;                                                 \
    }

/* The ABI's argument checks and shape lists. */
#include "reshape_adapter_args.h"

#endif /* RESHAPE_ADAPTER_H */
