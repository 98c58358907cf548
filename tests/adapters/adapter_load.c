/*
 * adapter_load.c - opens a library adapter for the adapter tests
 * (adapter_load.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "adapter_load.h"

const reshape_candidate *adapter_load(const char *name)
{
    const char *dir = getenv("ADAPTER_DIR");
    char path[512];

    snprintf(path, sizeof path, "%s/%s.so", dir != NULL ? dir : "build/candidates",
             name);
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL)
        cr_skip_test("adapter '%s' not built (run `make candidates`): %s", name,
                     dlerror());
    reshape_candidate_entry entry =
        (reshape_candidate_entry)dlsym(handle, RESHAPE_CANDIDATE_ENTRY);
    cr_assert_not_null(entry, "'%s' does not export %s", path,
                       RESHAPE_CANDIDATE_ENTRY);
    const reshape_candidate *c = entry();
    cr_assert_not_null(c);
    cr_assert_eq(c->abi_version, RESHAPE_ABI_VERSION);
    cr_assert_eq(c->struct_size, sizeof(reshape_candidate));
    return c;
}

const char *adapter_why(const reshape_candidate *c)
{
    const char *m = c->last_error != NULL ? c->last_error() : NULL;
    return m != NULL ? m : "(no message)";
}

int adapter_graph_without_reshape(const reshape_candidate *c, const char *name)
{
    if (strcmp(name, "onednn_graph") != 0 || strncmp(c->version, "3.2.", 4) != 0)
        return 0;
    reshape_status st = c->supports(RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1, RESHAPE_DT_F32,
                                    RESHAPE_DT_S64, 0);
    cr_assert_eq(st, RESHAPE_E_NOT_SUPPORTED,
                 "oneDNN %s Graph: f32 StaticReshape now %s: the finding of "
                 "reports/onednn_graph/repro/no_standalone_static_reshape.c changed",
                 c->version, reshape_status_name(st));
    cr_assert(strstr(adapter_why(c), "dnnl_graph_partition_is_supported") != NULL, "%s",
              adapter_why(c));
    cr_log_info("oneDNN %s: no partition for a StaticReshape alone", c->version);
    return 1;
}
