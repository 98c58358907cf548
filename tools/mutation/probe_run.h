/*
 * probe_run.h - what the equivalence probe's files share to make a call and
 * compare its answers (probe.c runs the sweeps, probe_call.c makes and
 * compares one call, probe_supports.c sweeps supports()).  Internal to
 * tools/mutation/.
 */
#ifndef TOOLS_MUTATION_PROBE_RUN_H
#define TOOLS_MUTATION_PROBE_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define PROBE_MSG_MAX 96 /* bytes of a last_error() text kept */

/* What one build did with one call. */
struct answer {
    int infer_done, infer_status;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    int exec_done, exec_status;
    int signal; /* that ended the process; 0: none */
    int exit;   /* the status the process exited with, when no signal */
    /* last_error() after infer_shape and after execute ("" and null 1 for NULL) */
    char infer_msg[PROBE_MSG_MAX], exec_msg[PROBE_MSG_MAX];
    int infer_msg_null, exec_msg_null;
};

/* One build's answer to a call and the arena after it. */
struct side {
    struct answer out;
    unsigned char *arena; /* probe_guarded(): a call's arena within PROBE_ARENA_CAP */
};

/* PROBE_ARENA_CAP bytes between two pages no one may touch; `flags`
 * MAP_SHARED or MAP_PRIVATE.  NULL when mmap fails. */
unsigned char *probe_guarded(int flags);

/* Where the arena of `c` starts in `map` (a probe_guarded() region): at its
 * start when c->flush_front, else ending at its end, so that a copy that
 * runs before or past the tensors faults on a guard page at once. */
unsigned char *probe_arena_of(unsigned char *map, const probe_call *c);

/* The call `c` on `lib` over a fresh arena in `map`, its misuse applied;
 * answers into `out`, which the caller has zeroed. */
void probe_call_make(const reshape_candidate *lib, const probe_call *c, unsigned char *map,
                     struct answer *out);

/* What tells the two sides of `c` apart, or NULL when nothing does: how
 * the call ended, the statuses, infer_shape's dims, the arena's bytes
 * (not where the original was ended by a signal, nor on a call outside
 * the ABI, PROBE_PARTIAL, where only the statuses and dims count, and only
 * when both builds returned).  Nothing on a call near the 2^63-bit limit
 * that ended the original (it read past its buffer).  last_error() texts are not compared here. */
const char *probe_differ(const probe_call *c, const struct side *a, const struct side *b);

/* Whether the last_error() texts of two answers differ (NULL against a
 * text, or two texts). */
int probe_messages_differ(const struct answer *x, const struct answer *y);

/* "signal 11 (...) in execute", "infer_shape OK, execute INTERNAL" ... */
void probe_answer_text(const struct answer *o, char *buf, size_t size);

/*
 * supports() on every op, data dtype and shape dtype (0 to the enum's count
 * + 1) and layout flags (0 to 63, RESHAPE_LAYOUT_DEVICE among them, and one
 * unknown bit), then last_error(), on both builds, each in a child of its
 * own.  Returns -1 when a fork or mmap fails, else 0 with *differ 1 when a
 * status the ABI fixes (values inside the enums and flags) differs or a
 * child ended otherwise than the other (the first such described in
 * `text`), and *msg_differ 1 when a last_error() text does.
 */
int probe_supports_sweep(const reshape_candidate *original, const reshape_candidate *mutant,
                         int *differ, int *msg_differ, char *text, size_t size);

#endif
