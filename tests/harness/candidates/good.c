/* good.c - the base candidate without a defect: every case passes. */
#include "base.h"
