/*
 * kit_table_test.c - a candidate built on the adapter kit
 * (tests/adapters/kit_candidate/, build/tests/kit_candidate.so) as the
 * harness meets it: the table and the one exported entry that
 * RESHAPE_ADAPTER_DEFINE_LOADED makes, its start run once, the kit's
 * checks and messages in front of the "library".  Depends on the ABI
 * header, Criterion and libdl.
 */
#include <dlfcn.h>
#include <stdint.h>

#include <criterion/criterion.h>

#include "reshape_candidate.h"

/* build/tests/kit_candidate.so (tests/adapters/kit_candidate/): its table
 * and entry come from RESHAPE_ADAPTER_DEFINE_LOADED. */
Test(kit, a_candidate_on_the_kit_exports_its_table_and_checks_its_calls)
{
    void *lib = dlopen("build/tests/kit_candidate.so", RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(lib, "%s", dlerror());
    reshape_candidate_entry entry = (reshape_candidate_entry)dlsym(lib, RESHAPE_CANDIDATE_ENTRY);
    cr_assert_not_null(entry);
    const reshape_candidate *c = entry();
    const int64_t in[2] = {2, 3}, out[1] = {6}, count = 1;
    const uint32_t bytes[6] = {1, 2, 3, 4, 5, 6};
    uint32_t got[6] = {0};
    reshape_tensor sh = {RESHAPE_DT_S64, 1, &count, NULL, (void *)out};
    reshape_params p = {RESHAPE_OP_OPENVINO_RESHAPE_1, 0, &sh};
    reshape_tensor src = {RESHAPE_DT_U32, 2, in, NULL, (void *)bytes};
    reshape_tensor dst = {RESHAPE_DT_U32, 1, out, NULL, got};

    cr_expect_eq(entry(), c, "one table");
    cr_expect_str_eq(c->name, "kit candidate");
    cr_expect_str_eq(c->version, "started 1", "the start runs once");
    cr_expect(c->abi_version == RESHAPE_ABI_VERSION && c->struct_size == sizeof *c);
    cr_expect(c->limits == NULL && c->device == NULL);
    cr_expect_eq(c->execute(NULL, &src, &dst), RESHAPE_E_INVALID_ARGUMENT);
    cr_expect_str_eq(c->last_error(), "'params' is NULL");
    cr_expect_eq(c->supports(RESHAPE_OP_OPENVINO_RESHAPE_1, RESHAPE_DT_F32, RESHAPE_DT_S64,
                             RESHAPE_LAYOUT_STRIDED_SRC | RESHAPE_LAYOUT_BROADCAST_SRC),
                 RESHAPE_E_NOT_SUPPORTED);
    cr_expect_str_eq(c->last_error(),
                     "kit tensors are dense: layout strided_src|broadcast_src cannot be expressed");
    cr_assert_eq(c->execute(&p, &src, &dst), RESHAPE_OK, "%s", c->last_error());
    cr_expect_null(c->last_error());
    cr_expect_arr_eq(got, bytes, sizeof got);
    cr_expect_null(dlsym(lib, "reshape_adapter_table_"), "only the entry is exported");
}
