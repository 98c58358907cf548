/*
 * helper.c - the library the kernel links, as an adapter links the vendor
 * library it wraps (libarmnn.so.22 for Arm NN): libkernel_helper.so.1.
 * tests/install/installed.sh builds it twice, the second time with
 * -DHELPER_BUILD=2, and `verify --rerun` must then name it.
 */
#include <string.h>

#ifndef HELPER_BUILD
#define HELPER_BUILD 1
#endif
#define TEXT(x) #x
#define BUILD_TEXT(x) TEXT(x)

/* Which build this is: the two builds differ in these bytes. */
const char kernel_helper_build[] = "kernel helper, build " BUILD_TEXT(HELPER_BUILD);

/* Copies `bytes` bytes from `src` to `dst` (which may overlap). */
void kernel_helper_copy(void *dst, const void *src, size_t bytes)
{
    memmove(dst, src, bytes);
}
