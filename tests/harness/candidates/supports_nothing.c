/* supports_nothing.c - supports() answers NOT_SUPPORTED for every request:
 * every (case, variant) is a skip, and a run that passed nothing is not
 * conformant (docs/certify.md, "Verdicts"). */
#define DEFECT_SUPPORTS(op, d, s, layout) return RESHAPE_E_NOT_SUPPORTED
#include "base.h"
