/* short_table.c - the base candidate claiming a table smaller than version
 * 1's: refused at load. */
#define DEFECT_STRUCT_SIZE (RESHAPE_CANDIDATE_V1_SIZE - 8)
#include "base.h"
