/*
 * test_bundle_name.c - cert/bundle.c, bundle_name: a certification
 * bundle's file name is a clean slug of the candidate's display name and
 * version, whatever bytes they hold.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cert/cert.h"

static void expect_name(const char *name, const char *version, const char *want)
{
    char *got = bundle_name(name, version);
    cr_expect_str_eq(got, want, "bundle_name(\"%s\", \"%s\")", name, version);
    free(got);
}

Test(bundle_name, a_display_name_becomes_a_lowercase_slug)
{
    /* the example: "Arm_NN_Reshape__CpuRef_-20.08" before */
    expect_name("Arm NN Reshape (CpuRef)", "20.08", "arm-nn-reshape-cpuref-20.08");
    expect_name("ONNX Runtime", "1.17.1", "onnx-runtime-1.17.1");
    expect_name("reshape-reference", "1.0", "reshape-reference-1.0");
    expect_name("slow_100x", "2.6+git", "slow_100x-2.6+git");
}

Test(bundle_name, runs_and_ends_of_other_bytes_go)
{
    expect_name("  --My   Kernel!!  ", "v2 (beta)", "my-kernel-v2-beta");
    expect_name("../../etc/passwd", "1/2", "etc-passwd-1-2");
    expect_name("caf\xc3\xa9\n\t", ".hidden.", "caf-hidden");
    expect_name("", "", "unnamed-unnamed");
    expect_name("***", "___", "unnamed-unnamed");
}
