/*
 * kit_cxx.h - the adapter kit (include/reshape_adapter.h) compiled as C++17
 * in kit_cxx.cpp, behind C functions, so kit_test.c can assert that a C++
 * adapter gets the same answers and messages as a C one.  Each function
 * copies the kit's last_error of its call into `why` ("" when none).
 */
#ifndef KIT_CXX_H
#define KIT_CXX_H

#include <stddef.h>

#include "reshape_candidate.h"

#ifdef __cplusplus
extern "C" {
#endif

reshape_status kit_cxx_check_execute(const reshape_params *params,
                                     const reshape_tensor *src,
                                     const reshape_tensor *dst, char *why,
                                     size_t size);
reshape_status kit_cxx_check_infer(const reshape_params *params,
                                   const reshape_tensor *src, char *why,
                                   size_t size);
unsigned kit_cxx_layout(const reshape_tensor *src, const reshape_tensor *dst);

#ifdef __cplusplus
}
#endif

#endif /* KIT_CXX_H */
