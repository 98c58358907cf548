/* v1_table.c - the base candidate with the table as version 1 was first
 * published (struct_size RESHAPE_CANDIDATE_V1_SIZE, no limits or device):
 * it must load and pass. */
#define DEFECT_STRUCT_SIZE RESHAPE_CANDIDATE_V1_SIZE
#include "base.h"
