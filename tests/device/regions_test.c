/*
 * regions_test.c - worker/exec_device.c on a real arena with a mock device
 * in host memory: which bytes of a cell each request mirrors, that device
 * addresses keep the arena's alignment, that the copies come back (into
 * the read-only src area too) before anything is released, how a fault
 * near a region is named, and the load-time check of a device table.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "worker/exec_device.h"

static int live, releases, released_before_read;
static const char *fail_alloc;

static reshape_status m_alloc(size_t bytes, void **p)
{
    if (fail_alloc)
        return RESHAPE_E_INTERNAL;
    live++;
    return posix_memalign(p, 256, bytes) ? RESHAPE_E_INTERNAL : RESHAPE_OK;
}

static reshape_status m_release(void *p)
{
    free(p);
    live--;
    releases++;
    return RESHAPE_OK;
}

static reshape_status m_to_device(void *to, const void *from, size_t n)
{
    memcpy(to, from, n);
    return RESHAPE_OK;
}

static reshape_status m_to_host(void *to, const void *from, size_t n)
{
    released_before_read |= releases > 0;
    memcpy(to, from, n);
    return RESHAPE_OK;
}

static reshape_status m_sync(void)
{
    return RESHAPE_OK;
}

static const char *m_last_error(void)
{
    return fail_alloc;
}

static reshape_device device = {
    sizeof(reshape_device), RESHAPE_DEVICE_EXT, 0, "mock", m_alloc, m_release,
    m_to_device, m_to_host, m_sync, NULL, NULL};
static reshape_candidate cand = {
    .abi_version = RESHAPE_ABI_VERSION, .struct_size = sizeof(reshape_candidate),
    .name = "mock", .version = "1", .last_error = m_last_error, .device = &device};

static arena a;

static void setup(void)
{
    cr_assert_eq(arena_create(&a, 1 << 20, 1 << 20), 0);
}

static void teardown(void)
{
    arena_destroy(&a);
}

/* The region holding arena offset `off`. */
static const dev_region *region_of(const dev_mirror *m, size_t off)
{
    for (int i = 0; i < m->n; i++)
        if (off >= m->r[i].off && off < m->r[i].off + m->r[i].len)
            return &m->r[i];
    cr_assert_fail("no region holds offset %zu", off);
    return NULL;
}

TestSuite(device_regions, .init = setup, .fini = teardown);

Test(device_regions, big_cell_misaligned_src)
{
    const cell *cl = &a.cells[ARENA_BIG];
    size_t src_end = cl->src_off + cl->src_size, dst_end = cl->dst_off + cl->dst_size;
    wire_request q = {.kind = REQ_EXECUTE, .ncalls = 1};
    q.call[0].src.data_off = (int64_t)((src_end - 1000) / 16 * 16 + 1);
    q.call[0].dst.data_off = (int64_t)(dst_end - 70000);
    for (size_t i = cl->src_off; i < src_end; i++)
        a.pview[i] = (uint8_t)(i * 7);
    dev_mirror m;
    exec_device_stage(&m, &cand, &a, cl, &q, a.wview);
    cr_assert_eq(m.n, 2);
    size_t s = (size_t)q.call[0].src.data_off, d = (size_t)q.call[0].dst.data_off;
    const dev_region *rs = region_of(&m, s), *rd = region_of(&m, d);
    cr_expect_eq(rs->off + rs->len, src_end, "the src region ends with its area");
    cr_expect_leq(rs->off, s - EXEC_DEVICE_LEAD, "the canaries before src are in it");
    cr_expect_gt(rs->off + EXEC_DEVICE_ALIGN, s - EXEC_DEVICE_LEAD);
    cr_expect_eq(rs->len % EXEC_DEVICE_ALIGN, 0);
    cr_expect_eq(rd->off, d / a.page * a.page, "dst's region starts at its page");
    cr_expect_eq(rd->off + rd->len, dst_end);
    uint8_t *ds = exec_device_addr(&m, (int64_t)s), *dd = exec_device_addr(&m, (int64_t)d);
    cr_expect_eq((uintptr_t)ds % EXEC_DEVICE_ALIGN, s % EXEC_DEVICE_ALIGN, "misaligned stays so");
    cr_expect_eq((uintptr_t)dd % EXEC_DEVICE_ALIGN, d % EXEC_DEVICE_ALIGN);
    cr_expect_arr_eq(ds - 64, a.pview + s - 64, 1064, "the staged bytes are on the device");
    cr_expect_null(exec_device_addr(&m, -1));

    /* the kernel writes dst and, wrongly, src: both come back */
    dd[3] = 0x5A;
    ds[-10] = (uint8_t)~ds[-10];
    uint8_t was = a.pview[s - 10];
    exec_device_unstage(&m, &a, a.wview);
    cr_expect_eq(a.pview[d + 3], 0x5A);
    cr_expect_eq(a.pview[s - 10], (uint8_t)~was, "the read-only src area was written back");
    cr_expect_eq(live, 0, "every region released");
    cr_expect_eq(released_before_read, 0);
}

Test(device_regions, small_cell_in_place_is_one_region)
{
    const cell *cl = &a.cells[3];
    wire_request q = {.kind = REQ_EXECUTE, .ncalls = 1};
    q.call[0].src.data_off = q.call[0].dst.data_off = (int64_t)(cl->dst_off + 2048);
    dev_mirror m;
    exec_device_stage(&m, &cand, &a, cl, &q, a.wview);
    cr_assert_eq(m.n, 1);
    cr_expect_eq(m.r[0].off, cl->dst_off, "the moat below dst is in it");
    cr_expect_eq(m.r[0].len, cl->dst_size);
    cr_expect_eq(exec_device_addr(&m, q.call[0].src.data_off),
                 exec_device_addr(&m, q.call[0].dst.data_off));
    exec_device_unstage(&m, &a, a.wview);
}

Test(device_regions, threads_slots_are_regions_of_their_own)
{
    const cell *cl = &a.cells[ARENA_BIG];
    wire_request q = {.kind = REQ_THREADS, .ncalls = 2, .iters = 4, .slot_bytes = 128};
    for (int t = 0; t < 2; t++) {
        q.call[t].src.data_off = (int64_t)(cl->src_off + (size_t)t * 128);
        q.call[t].dst.data_off = (int64_t)(cl->dst_off + (size_t)t * 4 * 128);
    }
    dev_mirror m;
    exec_device_stage(&m, &cand, &a, cl, &q, a.wview);
    cr_assert_eq(m.n, 4);
    /* slot 1 starts where slot 0 ends: its address is its own region's */
    const dev_region *r1 = region_of(&m, cl->src_off + 128);
    cr_expect_eq(r1->len, 128);
    cr_expect_eq(exec_device_addr(&m, q.call[1].src.data_off), r1->dptr);
    cr_expect_eq(region_of(&m, cl->dst_off)->len, 512);
    exec_device_unstage(&m, &a, a.wview);
}

Test(device_regions, faults_near_a_region_are_named_by_the_arena)
{
    const cell *cl = &a.cells[ARENA_BIG];
    size_t dst_end = cl->dst_off + cl->dst_size;
    wire_request q = {.kind = REQ_EXECUTE, .ncalls = 1};
    q.call[0].src.data_off = -1;
    q.call[0].dst.data_off = (int64_t)(dst_end - 64);
    dev_mirror m;
    exec_device_stage(&m, &cand, &a, cl, &q, a.wview);
    const dev_region *r = region_of(&m, dst_end - 1);
    uint64_t off = 0;
    /* this thread is not the harness's yet: a device thread's fault */
    cr_expect_eq(exec_device_fault((uintptr_t)(r->dptr + r->len + 5), 1, &off), 1);
    cr_expect_eq(off, dst_end + 5, "past the area, in the arena's guard page");
    cr_expect_eq(exec_device_fault((uintptr_t)(r->dptr + r->len + 2 * a.page), 1, &off), 0);
    exec_device_host_thread();
    cr_expect_eq(exec_device_fault((uintptr_t)r->dptr, 0, &off), 2, "host code read it");
    exec_device_unstage(&m, &a, a.wview);
    cr_expect_eq(exec_device_fault((uintptr_t)r->dptr, 0, &off), 0, "no request, no regions");
}

Test(device_regions, first_use_and_table_checks)
{
    char why[256];
    cr_expect_eq(exec_device_try(&cand, why, sizeof why), 0);
    fail_alloc = "no device here";
    cr_expect_eq(exec_device_try(&cand, why, sizeof why), -1);
    cr_expect_str_eq(why, "alloc returned INTERNAL: no device here");
    fail_alloc = NULL;

    wire_probe probe;
    memset(&probe, 0, sizeof probe);
    cr_expect_null(exec_device_check(&cand, &probe));
    cr_expect_eq(probe.device_type, RESHAPE_DEVICE_EXT);
    cr_expect_str_eq(probe.device_name, "mock");
    reshape_device bad = device;
    reshape_candidate t = cand;
    t.device = &bad;
    bad.copy_to_host = NULL;
    cr_expect_str_eq(exec_device_check(&t, &probe), "has a NULL 'device->copy_to_host'");
    bad = device;
    bad.struct_size = RESHAPE_DEVICE_V1_SIZE - 1;
    cr_expect(strstr(exec_device_check(&t, &probe), "struct_size"));
    t.struct_size = RESHAPE_CANDIDATE_V1_SIZE;    /* a v1 table: no device field */
    cr_expect_null(exec_device(&t));
    cr_expect_eq(exec_device_layout(&t, 1), 1);
    cr_expect_eq(exec_device_layout(&cand, 1), 1 | RESHAPE_LAYOUT_DEVICE);
}
