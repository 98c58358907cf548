/* naps_or_spins.c - infer_shape of an OpenVINO request with special_zero
 * ignores SIGTERM, SIGALRM and SIGINT and pause()s for good when dims[0]
 * is 2 (a hang asleep), and takes 1.5 s, then answers right, when dims[0]
 * is 3: asleep in nanosleep, or with RESHAPE_TEST_SPIN set computing (a
 * loop on the clock).  Every other call is right at once.  The first look
 * at a request (harness/engine/deadline.h, a second in) makes the hang and
 * the nap suspects, run again with the full budget; the loop it leaves to
 * finish. */
#define SLOW_CALL_NS 1500000000LL
#define SLOW_CALL_SPINS
#include "hang_or_slow.h"
