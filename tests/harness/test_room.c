/*
 * test_room.c - the rule that lets the confirmer run more suspects at
 * once (harness/run/room.h): only while the CPUs were mostly idle since
 * the last look, memory is to spare and descriptors are, so that hangs
 * that sleep are confirmed together and hangs that spin are not.
 */
#include <criterion/criterion.h>
#include <sys/resource.h>

#include "run/room.h"

/* A machine that has room: 80 of 100 ticks idle, 8 of 16 GiB available,
 * 100 of 65536 descriptors open. */
static room_view roomy(void)
{
    return (room_view){.before = {1000, 5000}, .now = {1080, 5100},
                       .mem_available_kb = 8ll << 20, .mem_total_kb = 16ll << 20,
                       .fds_open = 100, .fds_limit = 65536, .fds_each = 16};
}

Test(room, an_idle_machine_with_memory_and_descriptors_has_room)
{
    room_view v = roomy();
    cr_expect_eq(room_rule(&v), 1);
    v.now.idle = v.before.idle + 50;            /* exactly half idle */
    cr_expect_eq(room_rule(&v), 1);
}

Test(room, busy_cpus_have_none)
{
    room_view v = roomy();
    v.now.idle = v.before.idle + 49;            /* hangs that spin */
    cr_expect_eq(room_rule(&v), 0);
    v.now = v.before;                           /* no tick: nothing to tell */
    cr_expect_eq(room_rule(&v), 0);
    v = roomy();
    v.now.total = v.before.total - 1;           /* a counter that went back */
    cr_expect_eq(room_rule(&v), 0);
}

Test(room, scarce_memory_has_none)
{
    room_view v = roomy();
    v.mem_available_kb = v.mem_total_kb / 4 - 1;
    cr_expect_eq(room_rule(&v), 0);
    v.mem_available_kb = v.mem_total_kb / 4;
    cr_expect_eq(room_rule(&v), 1);
    v.mem_total_kb = 512 * 1024;                /* a quarter, but under 256 MiB */
    v.mem_available_kb = 255 * 1024;
    cr_expect_eq(room_rule(&v), 0);
}

Test(room, descriptors_near_the_limit_have_none)
{
    room_view v = roomy();
    v.fds_limit = 1024;
    v.fds_open = 3 * 1024 / 4 - v.fds_each - 1;
    cr_expect_eq(room_rule(&v), 1);
    v.fds_open++;                               /* would reach three quarters */
    cr_expect_eq(room_rule(&v), 0);
}

Test(room, a_look_too_soon_after_the_last_says_no)
{
    room r = {{0, 0}, 0};
    cr_expect_eq(room_look(&r, 16), 0, "the first look has nothing to compare with");
    cr_expect_neq(r.last_ns, 0);
    cr_expect_eq(room_look(&r, 16), 0, "a look within ROOM_INTERVAL_NS");
}

Test(room, the_descriptor_limit_is_raised_to_the_hard_one)
{
    struct rlimit lim;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
    rlim_t hard = lim.rlim_max;
    lim.rlim_cur = 256 < hard ? 256 : hard;
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
    room_raise_fd_limit();
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &lim), 0);
    rlim_t want = hard == RLIM_INFINITY || hard > 65536 ? 65536 : hard;
    cr_expect_eq(lim.rlim_cur, want);
}
