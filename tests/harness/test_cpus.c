/*
 * test_cpus.c - proc/cpus.h: slot k gets the (k mod n)-th of the n CPUs
 * recorded, counted from the lowest, with holes in the set too; a pin
 * leaves the thread on that CPU alone and a release gives the recorded
 * set back; before anything is recorded nothing is pinned.  Each test
 * runs in a process of its own (Criterion), so a pin stays there.
 * Depends on Criterion and Linux sched_setaffinity.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>

#include <criterion/criterion.h>

#include "proc/proc.h"

/* The CPUs of `set` in order into cpus[]; returns how many. */
static int list(const cpu_set_t *set, int *cpus)
{
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, set))
            cpus[n++] = c;
    return n;
}

static cpu_set_t own(void)
{
    cpu_set_t s;
    cr_assert_eq(sched_getaffinity(0, sizeof s, &s), 0);
    return s;
}

Test(cpus, nothing_recorded_pins_nothing)
{
    cpu_set_t before = own();
    cr_expect_eq(cpus_of_slot(0), -1);
    errno = 0;
    cr_expect_eq(cpus_pin(0), -1);
    cr_expect_eq(errno, EINVAL);
    cr_expect_eq(cpus_release(), 0);
    cpu_set_t after = own();
    cr_expect(CPU_EQUAL(&before, &after));
}

/* Every CPU of the set the thread had, then a set with a hole: the
 * lowest and the highest CPU only (with two or more). */
Test(cpus, slot_k_gets_the_kth_cpu_of_the_set_round_and_round)
{
    int cpus[CPU_SETSIZE];
    cpu_set_t all = own();
    for (int pass = 0; pass < 2; pass++) {
        cpu_set_t set = all;
        int n = list(&all, cpus);
        if (pass == 1) {
            if (n < 3)
                break;
            CPU_ZERO(&set);
            CPU_SET(cpus[0], &set);
            CPU_SET(cpus[n - 1], &set);
            cr_assert_eq(sched_setaffinity(0, sizeof set, &set), 0);
            n = list(&set, cpus);
        }
        cpus_remember();
        for (int k = 0; k < 2 * n + 1; k++)
            cr_expect_eq(cpus_of_slot(k), cpus[k % n], "pass %d slot %d", pass, k);
        cr_expect_eq(cpus_of_slot(-1), -1);
    }
}

Test(cpus, a_pin_keeps_the_thread_on_its_cpu_and_a_release_gives_every_cpu_back)
{
    cpu_set_t all = own();
    cpus_remember();
    for (int k = 0; k < 3; k++) {
        cr_assert_eq(cpus_pin(k), 0);
        cpu_set_t now = own();
        cr_expect_eq(CPU_COUNT(&now), 1);
        cr_expect(CPU_ISSET(cpus_of_slot(k), &now), "slot %d: not on CPU %d", k, cpus_of_slot(k));
        cr_expect_eq(sched_getcpu(), cpus_of_slot(k));
    }
    cr_assert_eq(cpus_release(), 0);
    cpu_set_t back = own();
    cr_expect(CPU_EQUAL(&all, &back));
}
