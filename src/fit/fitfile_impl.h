/* src/fit/fitfile_impl.h - private state of the fit-file reader (fitfile.c, rows.c). */
#ifndef ZVMPERF_FITFILE_IMPL_H
#define ZVMPERF_FITFILE_IMPL_H

#include "fit/fit_impl.h"
#include "util/ini.h"

/* A column of the data (table 0) or of the join table (table 1). */
#define FF_MAX_PER_FILE 16 /* data files an [inputs] `per_file` list can cover */

/* A column of the data (table 0) or of the join table (table 1); or, for an [inputs]
 * `per_file v1, v2, ...`, one constant per data file (per_file = 1, in the model's unit). */
typedef struct ff_col {
    int table;
    size_t col;
    double mul, div; /* header unit -> model unit: value * mul / div (zvp_unit_ratio) */
    int per_file;
    double file_value[FF_MAX_PER_FILE];
} ff_col;

/* One condition of [fit] where = <column> = <value>[; ...]. */
typedef struct ff_where {
    char *column, *value;  /* trimmed */
    ff_col c;
    int numeric;           /* 1: the column is numeric (compare number), 0: text */
    double number;         /* value as a number when numeric */
} ff_where;

typedef struct ff_reader {
    const char *path;      /* the fit file as given */
    zvp_ini *ini;
    zvp_fit *fit;          /* being built (owns the resolved paths) */
    /* [fit] values, pointing into ini; NULL when absent */
    const char *model, *data, *join, *join_key, *base, *output, *where, *starts, *residual;
    size_t n_data;
    char **data_paths;     /* [n_data] resolved */
    zvp_table **tables;    /* [n_data]; columns are looked up in tables[0] */
    zvp_table *join_t;
    size_t n_where;
    ff_where *wheres;
    ff_col *input_cols;    /* [n_params]: column of fit input k */
    ff_col *match_cols;    /* [n_outputs]: column of matched output j */
} ff_reader;

/* Look a column up in the data table, then in the join table ("[section] key = column" in
 * the message). ZVP_ENOTFOUND lists both tables' columns. */
int zvp_ff_find_column(const ff_reader *r, const char *section, const char *key,
                       const char *column, ff_col *c, zvp_error *err);

/* Join every data row, apply the where filter, then add the rows left to r->fit (rows.c). */
int zvp_ff_assemble_rows(ff_reader *r, zvp_error *err);

/* Keep the source of fit row i: data file `file`, its row `row`, the join table's row
 * `partner` (rowinfo.c). 0 or ZVP_ENOMEM. */
int zvp_ff_keep_row(ff_reader *r, size_t i, size_t file, size_t row, size_t partner);

/* [sigma] declarations, after the rows are added (sigma.c). */
int zvp_ff_sigma(ff_reader *r, zvp_error *err);

/* [dependent] declarations, after the rows are added (dependent.c). */
int zvp_ff_dependent(ff_reader *r, zvp_error *err);

#endif
