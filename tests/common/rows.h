/*
 * rows.h - RowTest: a table-driven Criterion test that runs its body once
 * per row of its table, in one process.
 *
 * Criterion's ParameterizedTest starts a process per row, and each process
 * starts libcriterion afresh, which initializes libgit2, which parses the
 * system's CA bundle (/etc/ssl/certs/ca-certificates.crt).  That costs
 * about 12 ms of CPU per row, and about 50 ms under ASan: 786 reference
 * rows took 47 CPU-s under the sanitizers, for 0.2 s of tests.
 * The rows of one table test one function on many inputs and share no
 * state, so they share a process.  A row that crashes takes the table's
 * test with it, and a failed cr_assert ends the test at its row: its
 * message must name the row (its name, dtype, op or index).
 *
 * Use it where ParameterizedTest would go, with the same
 * ParameterizedTestParameters(Suite, Name) generator before it:
 *
 *     ParameterizedTestParameters(errors, infer_shape)
 *     {
 *         return cr_make_param_array(struct infer_row, errors, COUNT(errors));
 *     }
 *
 *     RowTest(struct infer_row *row, errors, infer_shape)
 *     {
 *         check_infer_row(row);
 *     }
 */
#ifndef TESTS_COMMON_ROWS_H
#define TESTS_COMMON_ROWS_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

/* The generator ParameterizedTestParameters(Suite, Name) defines
 * (criterion/internal/parameterized.h names it so). */
#define ROWS_GENERATOR_(Suite, Name) Suite##_##Name##_param

#define RowTest(Param, Suite, Name)                                            \
    static void Suite##_##Name##_row(Param);                                   \
    Test(Suite, Name)                                                          \
    {                                                                          \
        struct criterion_test_params rows_ = ROWS_GENERATOR_(Suite, Name)();   \
        for (size_t i_ = 0; i_ < rows_.length; i_++)                           \
            Suite##_##Name##_row((void *)((char *)rows_.params + i_ * rows_.size));      \
        if (rows_.cleanup)                                                     \
            rows_.cleanup(&rows_);                                             \
    }                                                                          \
    static void Suite##_##Name##_row(Param)

#endif
