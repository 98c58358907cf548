/* hang_or_slow.c - infer_shape of an OpenVINO request with special_zero
 * ignores SIGTERM, SIGALRM and SIGINT and pause()s for good when dims[0]
 * is 2, and sleeps 300 ms, then answers right, when dims[0] is 3; every
 * other call is right at once (an Arm NN-like kernel: some calls of a
 * kind hang, others of the same kind are slow).  However many hangs of
 * its kind came first, no slow call may be a TIMEOUT. */
#define SLOW_CALL_NS 300000000LL
#include "hang_or_slow.h"
