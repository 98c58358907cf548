/* accept_invalid.c - accepts a shape with two -1 (solving both). */
#define DEFECT_ACCEPT_TWO_MINUS_ONES 1
#include "base.h"
