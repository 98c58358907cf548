/*
 * library_test.c - build/libreshape_ref.so as the harness sees it: dlopen,
 * the one entry symbol, the table's ABI version and size, nothing of the
 * reference's internals exported, and a call through it.  The path comes
 * from RESHAPE_REF_SO (the make targets set it), else the default below.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static void *so;

static void open_so(void)
{
    const char *path = getenv("RESHAPE_REF_SO");

    if (path == NULL)
        path = "build/libreshape_ref.so";
    so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    cr_assert(so != NULL, "cannot dlopen '%s': %s", path, dlerror());
}

static void close_so(void)
{
    if (so != NULL)
        dlclose(so);
}

TestSuite(library, .init = open_so, .fini = close_so);

/* The table from the .so's entry symbol. */
static const reshape_candidate *table(void)
{
    reshape_candidate_entry entry;
    void *sym = dlsym(so, RESHAPE_CANDIDATE_ENTRY);

    cr_assert(sym != NULL, "'%s' not found", RESHAPE_CANDIDATE_ENTRY);
    /* POSIX: a dlsym result converts to a function pointer */
    memcpy(&entry, &sym, sizeof entry);
    return entry();
}

Test(library, entry_symbol_returns_a_table)
{
    cr_assert(table() != NULL);
}

Test(library, entry_returns_the_same_table_each_time)
{
    cr_assert_eq(table(), table());
}

Test(library, abi_version_is_1)
{
    cr_assert_eq(table()->abi_version, RESHAPE_ABI_VERSION);
    cr_assert_eq(table()->abi_version, 1u);
}

Test(library, struct_size_is_the_headers)
{
    cr_assert_eq(table()->struct_size, sizeof(reshape_candidate));
}

Test(library, name_and_version)
{
    cr_assert_str_eq(table()->name, "reshape-reference");
    cr_assert_str_eq(table()->version, "1.0");
}

Test(library, every_function_is_present)
{
    const reshape_candidate *t = table();

    cr_assert(t->supports != NULL);
    cr_assert(t->infer_shape != NULL);
    cr_assert(t->execute != NULL);
    cr_assert(t->last_error != NULL);
}

Test(library, internals_are_hidden)
{
    static const char *const internal[] = {
        "reshape_ref_infer", "reshape_ref_execute", "reshape_ref_copy",
        "reshape_ref_fail",  "reshape_ref_volume",  "reshape_ref_set_plain",
        "reshape_ref_plain", "reshape_ref_check_params"};

    for (size_t i = 0; i < sizeof internal / sizeof internal[0]; i++)
        cr_assert(dlsym(so, internal[i]) == NULL, "'%s' is exported",
                  internal[i]);
}

Test(library, execute_through_the_so)
{
    const reshape_candidate *t = table();
    struct shape_buf shape;
    float in[1200], out[1200];
    int64_t sdims[4] = {2, 5, 5, 24}, ddims[3] = {2, 150, 4};
    reshape_tensor src = tensor(RESHAPE_DT_F32, 4, sdims, in);
    reshape_tensor dst = tensor(RESHAPE_DT_F32, 3, ddims, out);
    reshape_params p;

    fill_random(in, sizeof in, 5);
    memset(out, 0, sizeof out);
    shape_init(&shape, RESHAPE_DT_S64, DIMS(0, -1, 4));
    p = params(RESHAPE_OP_OPENVINO_RESHAPE_1, 1, &shape.t);
    cr_assert_eq(t->execute(&p, &src, &dst), RESHAPE_OK);
    assert_bytes_eq(out, in, sizeof in);
    cr_assert(t->last_error() == NULL);
}

Test(library, errors_and_messages_through_the_so)
{
    const reshape_candidate *t = table();
    struct shape_buf shape;
    int64_t sdims[1] = {6}, out[RESHAPE_MAX_RANK];
    int32_t rank;
    reshape_tensor src = tensor(RESHAPE_DT_F32, 1, sdims, NULL);
    reshape_params p;

    shape_init(&shape, RESHAPE_DT_S64, DIMS(-1, -1));
    p = params(RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &shape.t);
    cr_assert_eq(t->infer_shape(&p, &src, &rank, out),
                 RESHAPE_E_MULTIPLE_MINUS_ONE);
    cr_assert(t->last_error() != NULL);
}
