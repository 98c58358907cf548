/*
 * adapter_load.h - what the adapter tests share: opening a library adapter
 * from build/candidates (ADAPTER_DIR overrides it) and its last message.
 * Depends on the ABI header, Criterion and libdl.
 */
#ifndef ADAPTER_LOAD_H
#define ADAPTER_LOAD_H

#include "reshape_candidate.h"

/* Opens <dir>/<name>.so and returns its table, after checking the ABI
 * version, the struct size and that it exports nothing but its entry.
 * Skips the calling test (cr_skip_test) when the adapter was not built. */
const reshape_candidate *adapter_load(const char *name);

/* The adapter's last_error for the calling thread, or "(no message)". */
const char *adapter_why(const reshape_candidate *c);

/* 1 when `c` is the oneDNN Graph adapter (`name` "onednn_graph") over
 * oneDNN 3.2, whose backend has no partition for a StaticReshape alone
 * (reports/onednn_graph/repro/no_standalone_static_reshape.c): then it
 * asserts the finding, supports() NOT_SUPPORTED for f32 StaticReshape-1
 * with dnnl_graph_partition_is_supported named, and the caller has
 * nothing else to check.  0 for every other adapter and version. */
int adapter_graph_without_reshape(const reshape_candidate *c, const char *name);

#endif /* ADAPTER_LOAD_H */
