/*
 * test_trust.c - what keeps the parent's side of the trust boundary
 * (harness/ARCHITECTURE.md, "Trust boundary") out of the candidate's
 * reach, tested without a candidate: the arena's memfd is sealed, so no
 * process that reopens it (as a worker can, through /proc/PID/fd) can
 * truncate it under the parent's view (SIGBUS) or grow it; and the
 * registry of process groups claims a pid once and never one whose group
 * the harness must not kill (<= 1, its own pid, its own group).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "proc/groups.h"

Test(trust, the_arena_memfd_is_sealed_against_shrinking_and_growing)
{
    arena a;
    cr_assert_eq(arena_create(&a, 1 << 16, 1 << 16), 0, "arena_create: %s", strerror(errno));
    int seals = fcntl(a.fd, F_GET_SEALS);
    cr_assert_geq(seals, 0);
    cr_expect(seals & F_SEAL_SHRINK);
    cr_expect(seals & F_SEAL_GROW);
    cr_expect(seals & F_SEAL_SEAL);
    /* what a worker does: open the memfd again through /proc */
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", a.fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
    cr_expect_eq(ftruncate(fd, 0), -1);
    cr_expect_eq(errno, EPERM);
    cr_expect_eq(ftruncate(fd, (off_t)a.size * 2), -1);
    cr_expect_eq(errno, EPERM);
    cr_expect_eq(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), -1, "the seals can still change");
    struct stat st;
    cr_assert_eq(fstat(fd, &st), 0);
    cr_expect_eq((size_t)st.st_size, a.size);
    close(fd);
    /* the parent's view still reads to its last byte (a SIGBUS would end
     * the test) */
    a.pview[a.size - 1] = 7;
    cr_expect_eq(((volatile uint8_t *)a.pview)[a.size - 1], 7);
    arena_destroy(&a);
}

Test(trust, no_group_the_harness_must_not_kill_is_claimed)
{
    cr_expect_eq(groups_claim(0), -1);
    cr_expect_eq(groups_claim(1), -1);
    cr_expect_eq(groups_claim(-5), -1);
    cr_expect_eq(groups_claim(getpid()), -1);
    cr_expect_eq(groups_claim(getpgrp()), -1);
}

Test(trust, a_pid_is_claimed_once_until_it_is_removed)
{
    pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) {
        pause();
        _exit(0);
    }
    cr_expect_eq(groups_claim(child), 0);
    cr_expect_eq(groups_claim(child), -1, "a second slot could claim the same worker");
    groups_remove(child);
    cr_expect_eq(groups_claim(child), 0);
    groups_remove(child);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
}
