/*
 * fuzz/fuzz_csv.c - libFuzzer harness: the CSV loader (zvp_table_read on a file in the
 * scratch directory holding the input), then every accessor on every cell.
 */
#include <stdio.h>
#include <stdlib.h>
#include "zvmperf/zvmperf.h"
#include "common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char in_path[FUZZ_PATH_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_path(in_path, "input.csv");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    zvp_table *t = NULL;
    zvp_error err = {0};
    fuzz_write_file(in_path, data, size);
    if (zvp_table_read(in_path, &t, &err) != ZVP_SUCCESS) {
        if (t)
            __builtin_trap(); /* *out is NULL on failure */
        return 0;
    }
    size_t rows = zvp_table_rows(t), cols = zvp_table_cols(t);
    for (size_t j = 0; j < cols; j++) {
        const char *name = zvp_table_col_name(t, j), *unit = zvp_table_col_unit(t, j);
        if (!name || !unit)
            __builtin_trap();
        if (j < 64 && zvp_table_col_index(t, name, &err) < 0)
            __builtin_trap(); /* a column is found by its own name (linear: first 64 only) */
        for (size_t i = 0; i < rows; i++) {
            (void)zvp_table_value(t, i, j);
            if (!zvp_table_text(t, i, j))
                __builtin_trap();
        }
    }
    if (zvp_table_text(t, rows, 0) || zvp_table_col_name(t, cols))
        __builtin_trap(); /* out of range gives NULL */
    zvp_table_free(t);
    return 0;
}
