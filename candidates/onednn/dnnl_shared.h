/*
 * dnnl_shared.h - what both oneDNN adapters (onednn.c over Debian's 2.6.3
 * and PyPI's 3.2.0, onednn_graph.c over PyPI's 3.2.0) do with oneDNN's C
 * API the same way: one CPU engine for the process, made on first use; one job run on a
 * fresh stream that is waited for; dtypes and statuses mapped by tables.
 * The engine, stream and status calls are the same in both versions.
 * Depends on the adapter kit, <oneapi/dnnl/dnnl.h> (and dnnl_debug.h) and
 * pthreads; each adapter includes it once.
 */
#ifndef DNNL_SHARED_H
#define DNNL_SHARED_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>

#include "reshape_adapter.h"

/* The oneDNN data type of `dtype` into the int *type, or NOT_SUPPORTED;
 * `dnnl_types` is the adapter's dtype map. */
#define DNNL_TYPE(dtype, type)                                                     \
    reshape_adapter_map_dtype(dnnl_types, RESHAPE_ADAPTER_COUNT(dnnl_types), dtype, \
                              "onednn has no data type", type)

/* One line of an adapter's status table: what a dnnl_status_t means. */
struct dnnl_meaning {
    dnnl_status_t status;
    reshape_status means;
};

/* The ABI status of `st` by `table` (`count` lines; `otherwise` for a
 * status not in it), recorded with the message "<who> refused the
 * reshape: '<step>' returned <oneDNN's word for st>". */
static reshape_status dnnl_map(const struct dnnl_meaning *table, size_t count,
                               reshape_status otherwise, const char *who,
                               dnnl_status_t st, const char *step)
{
    reshape_status mapped = otherwise;

    for (size_t i = 0; i < count; i++)
        if (table[i].status == st)
            mapped = table[i].means;
    return reshape_adapter_fail(mapped, "%s refused the reshape: '%s' returned %s", who, step,
                                dnnl_status2str(st));
}

static pthread_once_t engine_once = PTHREAD_ONCE_INIT;
static dnnl_engine_t engine;
static dnnl_status_t engine_status = dnnl_runtime_error;

/* Where oneDNN's CPU engine is a SYCL device (PyPI's 3.13.2,
 * candidates/onednn/wheel313.mk), the OpenCL ICD loader must find Intel's
 * OpenCL CPU runtime: the wheel's etc/OpenCL/vendors/intel-cpu.icd names a
 * build-machine path (/opt/anaconda1anaconda2anaconda3/lib), so the build
 * passes the library's own path as ONEDNN_OCL_ICD (a caller's setting
 * wins).  And the Unified Runtime loader's dlopen of libOpenCL.so.1 (no
 * RUNPATH) cannot find its NEEDED libirng.so from inside a dlopened
 * adapter ("Failed to load OpenCL library ... libirng.so: cannot open
 * shared object file"), so ONEDNN_PRELOAD, that file's path, is loaded
 * first: the later lookup by name finds it loaded. */
static void make_engine(void)
{
#ifdef ONEDNN_OCL_ICD
    setenv("OCL_ICD_FILENAMES", ONEDNN_OCL_ICD, 0);
#endif
#ifdef ONEDNN_PRELOAD
    (void)dlopen(ONEDNN_PRELOAD, RTLD_NOW | RTLD_LOCAL);
#endif
    engine_status = dnnl_engine_create(&engine, dnnl_cpu, 0);
}

/* The process's CPU engine into *out; dnnl_success, or why
 * dnnl_engine_create failed (kept: every later call says the same). */
static dnnl_status_t cpu_engine(dnnl_engine_t *out)
{
    pthread_once(&engine_once, make_engine);
    *out = engine;
    return engine_status;
}

/* One piece of work on a stream: submits it to `stream` (not waiting);
 * on failure sets *step to the oneDNN call that refused. */
typedef dnnl_status_t (*stream_job)(dnnl_stream_t stream, void *job, const char **step);

/* Creates a stream on `on`, runs `fn(stream, job)`, waits for it and
 * destroys the stream.  Returns dnnl_success or the first failure, with
 * *step naming the call that failed. */
static dnnl_status_t run_on_stream(dnnl_engine_t on, stream_job fn, void *job,
                                   const char **step)
{
    dnnl_stream_t stream;
    dnnl_status_t ds;

    *step = "dnnl_stream_create";
    if ((ds = dnnl_stream_create(&stream, on, dnnl_stream_default_flags)) != dnnl_success)
        return ds;
    if ((ds = fn(stream, job, step)) == dnnl_success) {
        *step = "dnnl_stream_wait";
        ds = dnnl_stream_wait(stream);
    }
    dnnl_stream_destroy(stream);
    return ds;
}

#endif /* DNNL_SHARED_H */
