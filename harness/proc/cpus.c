/*
 * cpus.c - the CPU a slot's processes start on (cpus.h).  Depends on
 * cpus.h and Linux sched_getaffinity and sched_setaffinity.
 */
#define _GNU_SOURCE
#include "cpus.h"

#include <errno.h>
#include <sched.h>

static cpu_set_t recorded;
static int have;

void cpus_remember(void)
{
    have = sched_getaffinity(0, sizeof recorded, &recorded) == 0 && CPU_COUNT(&recorded) > 0;
}

int cpus_of_slot(int slot)
{
    if (!have || slot < 0)
        return -1;
    int want = slot % CPU_COUNT(&recorded);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &recorded) && want-- == 0)
            return cpu;
    return -1;
}

int cpus_pin(int slot)
{
    int cpu = cpus_of_slot(slot);
    if (cpu < 0) {
        errno = EINVAL;
        return -1;
    }
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one);
}

int cpus_release(void)
{
    return have ? sched_setaffinity(0, sizeof recorded, &recorded) : 0;
}
