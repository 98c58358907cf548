/*
 * empty_reorder_sigfpe.c - oneDNN 2.6.3 (Debian 12's libdnnl2): a
 * reorder of an empty tensor whose memory descriptor has strides dies with
 * SIGFPE (an integer division by zero) inside dnnl_primitive_execute.
 *
 * Input: f32 memory of dims [0], dense (stride 1), reordered
 * (dnnl_reorder_primitive_desc_create, dnnl_primitive_execute) into f32
 * memory of dims [0] with stride 2 (a padded layout), as a Reshape of an
 * empty tensor into a strided destination does.  Expected: the reorder
 * returns dnnl_success and writes nothing (there is no element).  The
 * reorder runs in a child process, so that its signal can be reported.
 *
 * Exit status: 0 the finding holds (the child died of SIGFPE), 1 it is
 * gone (the reorder returned), 77 oneDNN could not be used here.
 * Build: see README.md beside this file.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>

/* Runs the reorder; returns its status, 77 where it cannot be set up. */
static int reorder_empty(void)
{
    const dnnl_dims_t dims = {0}, dense = {1}, padded = {2};
    float buffer[1] = {0};
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_memory_desc_t from_md, to_md;  /* structs in 2.x, passed by address */
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t from, to;
    dnnl_status_t st;

    if ((st = dnnl_engine_create(&engine, dnnl_cpu, 0)) != dnnl_success ||
        (st = dnnl_stream_create(&stream, engine, dnnl_stream_default_flags)) != dnnl_success ||
        (st = dnnl_memory_desc_init_by_strides(&from_md, 1, dims, dnnl_f32, dense)) !=
            dnnl_success ||
        (st = dnnl_memory_desc_init_by_strides(&to_md, 1, dims, dnnl_f32, padded)) !=
            dnnl_success ||
        (st = dnnl_reorder_primitive_desc_create(&pd, &from_md, engine, &to_md, engine, NULL)) !=
            dnnl_success ||
        (st = dnnl_primitive_create(&prim, pd)) != dnnl_success ||
        (st = dnnl_memory_create(&from, &from_md, engine, buffer)) != dnnl_success ||
        (st = dnnl_memory_create(&to, &to_md, engine, buffer)) != dnnl_success) {
        printf("oneDNN could not set up the reorder: %s\n", dnnl_status2str(st));
        return 77;
    }
    const char *impl = "?";
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    printf("reorder '%s' of f32 [0] stride 1 to f32 [0] stride 2: executing\n", impl);
    fflush(stdout);
    const dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
    if ((st = dnnl_primitive_execute(prim, stream, 2, args)) == dnnl_success)
        st = dnnl_stream_wait(stream);
    printf("dnnl_primitive_execute returned %s\n", dnnl_status2str(st));
    return st == dnnl_success ? 0 : 2;
}

int main(void)
{
    const dnnl_version_t *v = dnnl_version();
    printf("oneDNN %d.%d.%d\n", v->major, v->minor, v->patch);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 77;
    if (pid == 0)
        _exit(reorder_empty());
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return 77;
    if (WIFSIGNALED(status)) {
        printf("the child died of signal %d (%s): the finding %s\n", WTERMSIG(status),
               strsignal(WTERMSIG(status)), WTERMSIG(status) == SIGFPE ? "holds" : "changed");
        return WTERMSIG(status) == SIGFPE ? 0 : 1;
    }
    if (WEXITSTATUS(status) == 77)
        return 77;
    printf("the child exited with %d: the finding is gone\n", WEXITSTATUS(status));
    return 1;
}
