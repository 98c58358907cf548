/*
 * simdev_test.c - the simulated device (candidates/simdev/) on its own,
 * through its table as the harness sees it: device memory faults when
 * host code touches it, execute is asynchronous until synchronize, a
 * kernel's write past its allocation faults, memory_in_use counts, and a
 * forked child gets a device of its own.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reshape_candidate.h"

static const reshape_candidate *open_simdev(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "build/simdev/%s.so", name);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    cr_assert(lib, "cannot load %s: %s", path, dlerror());
    void *sym = dlsym(lib, RESHAPE_CANDIDATE_ENTRY);
    cr_assert(sym);
    reshape_candidate_entry entry;
    memcpy(&entry, &sym, sizeof entry);
    const reshape_candidate *t = entry();
    cr_assert(t && RESHAPE_CANDIDATE_HAS(t, device) && t->device);
    return t;
}

/* A [2, 3] f32 src reshaped to [3, 2] (dims and values on the host). */
typedef struct call {
    int64_t in[2], out[2], shape_values[2], shape_dims[1];
    reshape_tensor shape, src, dst;
    reshape_params params;
} call;

static void make_call(call *c, void *src, void *dst)
{
    *c = (call){{2, 3}, {3, 2}, {3, 2}, {2}, {0}, {0}, {0}, {0}};
    c->shape = (reshape_tensor){RESHAPE_DT_S64, 1, c->shape_dims, NULL, c->shape_values};
    c->src = (reshape_tensor){RESHAPE_DT_F32, 2, c->in, NULL, src};
    c->dst = (reshape_tensor){RESHAPE_DT_F32, 2, c->out, NULL, dst};
    c->params = (reshape_params){RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &c->shape};
}

/* Allocates device buffers for src and dst and copies `payload` into src. */
static void stage(const reshape_device *d, void **src, void **dst, const float *payload)
{
    cr_assert_eq(d->alloc(24, src), RESHAPE_OK);
    cr_assert_eq(d->alloc(24, dst), RESHAPE_OK);
    cr_assert_eq((uintptr_t)*src % 256, 0, "alloc must align to 256 bytes");
    float zero[6] = {0};
    cr_assert_eq(d->copy_to_device(*src, payload, 24), RESHAPE_OK);
    cr_assert_eq(d->copy_to_device(*dst, zero, 24), RESHAPE_OK);
}

static const float payload[6] = {1, 2, 3, 4, 5, 6};

/* Stages the payload into device buffers *p (src) and *q (dst), calls
 * execute on them and synchronize. */
static void staged_execute(const reshape_candidate *t, void **p, void **q)
{
    stage(t->device, p, q, payload);
    call c;
    make_call(&c, *p, *q);
    cr_assert_eq(t->execute(&c.params, &c.src, &c.dst), RESHAPE_OK);
    cr_assert_eq(t->device->synchronize(), RESHAPE_OK);
}

Test(simdev, copies_round_trip_and_count_memory)
{
    const reshape_device *d = open_simdev("simdev")->device;
    uint64_t before, during, after;
    cr_assert_eq(d->memory_in_use(&before), RESHAPE_OK);
    void *p, *q;
    stage(d, &p, &q, payload);
    cr_assert_eq(d->memory_in_use(&during), RESHAPE_OK);
    cr_expect_eq(during - before, 48);
    cr_assert_eq(d->copy_on_device(q, p, 24), RESHAPE_OK);
    cr_assert_eq(d->synchronize(), RESHAPE_OK);
    float back[6];
    cr_assert_eq(d->copy_to_host(back, q, 24), RESHAPE_OK);
    cr_expect_arr_eq(back, payload, sizeof back);
    cr_assert_eq(d->release(p), RESHAPE_OK);
    cr_assert_eq(d->release(q), RESHAPE_OK);
    cr_assert_eq(d->memory_in_use(&after), RESHAPE_OK);
    cr_expect_eq(after, before);
    cr_expect_eq(d->release(p), RESHAPE_E_INTERNAL, "a second release is refused");
}

Test(simdev, host_read_of_device_memory_faults, .signal = SIGSEGV)
{
    const reshape_device *d = open_simdev("simdev")->device;
    void *p, *q;
    stage(d, &p, &q, payload);
    volatile const uint8_t *v = p;
    cr_log_info("read %d", v[0]);      /* PROT_NONE outside the hooks */
}

Test(simdev, execute_is_asynchronous_until_synchronize)
{
    const reshape_candidate *t = open_simdev("simdev_sync_returns_early");
    const reshape_device *d = t->device;
    void *p, *q;
    staged_execute(t, &p, &q);      /* its synchronize does not wait */
    float back[6];
    cr_assert_eq(d->copy_to_host(back, q, 24), RESHAPE_OK);
    cr_expect_eq(back[0], 0.0f, "the kernel (1 s of latency) has not run yet");
    cr_assert_eq(d->release(p), RESHAPE_OK);       /* waits for the device */
    cr_assert_eq(d->copy_to_host(back, q, 24), RESHAPE_OK);
    cr_expect_arr_eq(back, payload, sizeof back);
}

Test(simdev, synchronize_waits_for_the_kernel)
{
    const reshape_candidate *t = open_simdev("simdev");
    const reshape_device *d = t->device;
    cr_assert_eq(t->supports(RESHAPE_OP_OPENVINO_RESHAPE_1, RESHAPE_DT_F32, RESHAPE_DT_S64,
                             RESHAPE_LAYOUT_DEVICE), RESHAPE_OK);
    cr_expect_eq(t->supports(RESHAPE_OP_OPENVINO_RESHAPE_1, RESHAPE_DT_F32, RESHAPE_DT_S64, 0),
                 RESHAPE_E_NOT_SUPPORTED, "host memory is not the device's");
    void *p, *q;
    staged_execute(t, &p, &q);
    float back[6];
    cr_assert_eq(d->copy_to_host(back, q, 24), RESHAPE_OK);
    cr_expect_arr_eq(back, payload, sizeof back);
}

Test(simdev, kernel_write_past_its_allocation_faults, .signal = SIGSEGV)
{
    /* dst is 256 bytes, the end of its page; the band after it is the guard */
    const reshape_candidate *t = open_simdev("simdev_band_past_dst");
    const reshape_device *d = t->device;
    void *p, *q;
    cr_assert_eq(d->alloc(4096, &p), RESHAPE_OK);
    cr_assert_eq(d->alloc(4096, &q), RESHAPE_OK);
    call c;
    make_call(&c, p, (uint8_t *)q + 4096 - 24);
    cr_assert_eq(t->execute(&c.params, &c.src, &c.dst), RESHAPE_OK);
    d->synchronize();
}

Test(simdev, forked_child_gets_its_own_device)
{
    const reshape_candidate *t = open_simdev("simdev");
    const reshape_device *d = t->device;
    void *p, *q;
    staged_execute(t, &p, &q);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        /* the parent's device thread is not here: a fresh one must run this */
        void *a, *b;
        float back[6];
        uint64_t n = 1;
        staged_execute(t, &a, &b);
        int ok = d->memory_in_use(&n) == RESHAPE_OK && n == 48 &&
                 d->copy_to_host(back, b, 24) == RESHAPE_OK && !memcmp(back, payload, sizeof back);
        _exit(ok ? 0 : 1);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's device failed (status %d)", st);
}
