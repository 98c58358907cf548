/*
 * widen.h - whether a run whose workers keep dying should start one more
 * slot.  A request that kills its worker costs the kernel a fork, an exit
 * and page faults, and a slot's deaths pass one at a time through its
 * thread in the parent, its zygote and its worker, which mostly wait on
 * one another: on a machine that other work keeps busy, each of them
 * waits for a CPU at every step, and a slot gets a third of a CPU where
 * it got three quarters on an idle machine.  More slots in flight get
 * more of the machine (docs/harness/isolation.md, "Zygotes and workers").  So
 * while most of the batches that ended since the last look ended in a
 * death, and the run's processes (the harness, its reaped workers, the
 * zygotes: CPU time the kernel counts, which no candidate writes) used
 * less than half a CPU a slot, the run starts one more slot, up to its
 * most.  A candidate that spins uses the CPU it gets, and gets no slot
 * while that is half a CPU a slot or more; neither does a run on an idle
 * machine, whose slots get the CPU they ask for.
 * Memory, descriptors and the machine's tasks bound the added slots as
 * they bound confirming ones (room.h).  Private to run/ (used by
 * schedule.c).  Depends on room.h and worker.h.
 */
#ifndef HARNESS_WIDEN_H
#define HARNESS_WIDEN_H

#include <pthread.h>
#include <stdint.h>

#include "engine/engine.h"
#include "room.h"

/* What the rule looks at, since the last look: wall_ns of wall time,
 * cpu_ns of CPU time the run's processes used in it (engine_cpu_ns),
 * `batches` that ended, `deaths` of them in a death of their worker;
 * `slots` running now. */
typedef struct widen_view {
    int64_t wall_ns, cpu_ns;
    int batches, deaths;
    int slots;
} widen_view;

/* Deaths a look needs at least: 128 a second over WIDEN_INTERVAL_NS, so
 * that a burst of a few crashes in a run of passes widens nothing. */
#define WIDEN_DEATHS_MIN 32

/* The CPU a slot may have had, in CPUs, for one more to start: half. */
#define WIDEN_CPU_PER_SLOT 0.5

/* Minimum time between two looks: the zygotes' CPU time comes in clock
 * ticks (10 ms), a shorter span tells too little. */
#define WIDEN_INTERVAL_NS ((int64_t)250 * 1000000)

/*
 * The rule: 1 when wall time passed, at least WIDEN_DEATHS_MIN batches
 * ended in a death and they are at least half of those that ended, and
 * cpu_ns is less than WIDEN_CPU_PER_SLOT of `slots` CPUs over wall_ns;
 * else 0.  Pure.
 */
int widen_rule(const widen_view *v);

/* Descriptors and tasks one more slot may cost (room.h's fds_each and
 * tasks_each): its zygote, worker and spare with three descriptors each,
 * its arena, rounded up; three processes. */
#define WIDEN_FDS_EACH 16
#define WIDEN_TASKS_EACH 3

/* A run's widening: guarded by its own lock, fed by every slot thread. */
typedef struct widen {
    pthread_mutex_t lock;
    int slots, most;            /* running, and the most the run may have */
    int64_t last_ns, last_cpu_ns;   /* at the last look; 0: none yet */
    int batches, deaths;        /* since then */
    room room;                  /* memory, descriptors, tasks (room.h) */
} widen;

/* A run of `slots` slots that may grow to `most`. */
void widen_init(widen *w, int slots, int most);
void widen_destroy(widen *w);

/*
 * Counts a batch of `e`'s that ended (`died`: in its worker's death) and,
 * when the run may grow and WIDEN_INTERVAL_NS passed since the last look,
 * looks: widen_rule over what ended since then and engine_cpu_ns, then
 * room_look for memory, descriptors and tasks.  Returns 1 when the caller
 * is to start one more slot now (counted already; widen_failed when it
 * could not), else 0.  Thread-safe.
 */
int widen_ended(widen *w, engine *e, int died);

/* The slot widen_ended asked for could not start. */
void widen_failed(widen *w);

#endif
