/*
 * widen.c - one more slot for a run whose workers keep dying on a crowded
 * machine (widen.h).  Depends on room.h, worker.h and POSIX.
 */
#include "widen.h"

#include <time.h>

int widen_rule(const widen_view *v)
{
    if (v->wall_ns <= 0 || v->slots < 1)
        return 0;
    if (v->deaths < WIDEN_DEATHS_MIN || 2 * v->deaths < v->batches)
        return 0;
    return (double)v->cpu_ns < WIDEN_CPU_PER_SLOT * v->slots * (double)v->wall_ns;
}

void widen_init(widen *w, int slots, int most)
{
    *w = (widen){.slots = slots, .most = most};
    pthread_mutex_init(&w->lock, NULL);
}

void widen_destroy(widen *w)
{
    pthread_mutex_destroy(&w->lock);
}

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int widen_ended(widen *w, engine *e, int died)
{
    pthread_mutex_lock(&w->lock);
    w->batches++;
    w->deaths += died != 0;
    int64_t now = mono_ns();
    int grow = 0;
    if (w->slots < w->most && now - w->last_ns >= WIDEN_INTERVAL_NS) {
        int64_t cpu = engine_cpu_ns(e);
        widen_view v = {.wall_ns = w->last_ns ? now - w->last_ns : 0,
                        .cpu_ns = cpu - w->last_cpu_ns, .batches = w->batches,
                        .deaths = w->deaths, .slots = w->slots};
        /* looked at every time, so that its own first look is behind it */
        int room = room_look(&w->room, WIDEN_FDS_EACH, WIDEN_TASKS_EACH, NULL, 0);
        grow = widen_rule(&v) && room;
        w->slots += grow;
        w->last_ns = now;
        w->last_cpu_ns = cpu;
        w->batches = w->deaths = 0;
    }
    pthread_mutex_unlock(&w->lock);
    return grow;
}

void widen_failed(widen *w)
{
    pthread_mutex_lock(&w->lock);
    w->slots--;
    w->most = w->slots;         /* what failed once is not tried again */
    pthread_mutex_unlock(&w->lock);
}
