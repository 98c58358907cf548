/* missing_symbol.c - execute calls a function no library defines: dlopen
 * (RTLD_NOW) refuses the candidate. */
extern void reshape_test_no_such_function(void);
#define DEFECT_EXECUTE(p, src, dst) reshape_test_no_such_function()
#include "base.h"
