/*
 * adapter_load.c - opens a library adapter for the adapter tests
 * (adapter_load.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

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
