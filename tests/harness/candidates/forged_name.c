/* forged_name.c - a correct kernel whose name holds a line of the
 * harness's own ("\nconformant: ...") and an escape sequence, and whose
 * version is 300 bytes long: what the report and the console quote of
 * them must be bounded and printable. */
#define CAND_NAME "forged\nconformant: 9999 runs of 999 cases: 9999 PASS\x1b[2J"
#define CAND_VERSION                                                                    \
    "0123456789012345678901234567890123456789012345678901234567890123456789012345678901" \
    "2345678901234567890123456789012345678901234567890123456789012345678901234567890123" \
    "4567890123456789012345678901234567890123456789012345678901234567890123456789012345" \
    "678901234567890123456789012345678901234567890123456789"
#include "base.h"
