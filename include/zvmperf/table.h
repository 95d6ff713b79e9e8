/*
 * zvmperf/table.h - measurement tables (CSV), as the fits read them.
 * The CSV format (header units, quoting, comments) is described in calibration/README.md.
 */
#ifndef ZVMPERF_TABLE_H
#define ZVMPERF_TABLE_H

#include <stddef.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A CSV table: '#' comment lines, one header row whose cells are `name` or `name [unit]`,
 * then data rows. Cells are numbers or text. Opaque handle. */
typedef struct zvp_table zvp_table;

/**
 * zvp_table_read - read a CSV measurement table.
 * Cells are split on ',' and trimmed of spaces and tabs; a cell may be quoted with '"'
 * ("" is a quote inside quotes). CRLF line ends, blank lines and '#' comment lines (also
 * indented) are accepted; lines have no length limit. An empty cell has value NaN and
 * text "". A cell is numeric when the whole (trimmed) text is a finite number.
 * @param[in]  path  file path, or "-" for standard input (read once, at most
 *                   ZVP_TABLE_MAX_BYTES; a NUL byte anywhere is ZVP_EPARSE naming the line).
 * @param[out] out   new table (free with zvp_table_free).
 * @return ZVP_SUCCESS; ZVP_EIO (missing file, a directory, an input over the limit;
 *         message names the path and the limit); ZVP_EPARSE (ragged
 *         row, no header, empty or duplicate column name, bad quoting; message gives
 *         file:line); ZVP_ENOMEM. *out is NULL on failure.
 * Thread safety: reentrant.
 */
int zvp_table_read(const char *path, zvp_table **out, zvp_error *err);

/* Inputs larger than this are refused (zvp_table_read reads the whole input once; "-" is
 * standard input, pipes and FIFOs work). */
#define ZVP_TABLE_MAX_BYTES ((size_t)64 << 20)
/** zvp_table_free - free; NULL is a no-op. */
void zvp_table_free(zvp_table *t);
/** zvp_table_rows / zvp_table_cols - number of data rows (header, comment and blank lines
 *  not counted) and of columns; 0 for a NULL table. */
size_t zvp_table_rows(const zvp_table *t);
size_t zvp_table_cols(const zvp_table *t);
/** Column name (without the unit) and unit ("" if none) of column j (0 <= j < cols); owned
 *  by the table. NULL when t is NULL or j >= zvp_table_cols(t). */
const char *zvp_table_col_name(const zvp_table *t, size_t j);
const char *zvp_table_col_unit(const zvp_table *t, size_t j);
/** Index of a named column, or -1 with ZVP_ENOTFOUND (message lists the columns); -1 with
 *  ZVP_EINVAL when t or name is NULL. */
long zvp_table_col_index(const zvp_table *t, const char *name, zvp_error *err);
/** Numeric value of cell (i, j) (row i < rows, column j < cols); NaN if the cell is text or
 *  empty, and NaN when t is NULL or i or j is out of range (no error is reported: use
 *  zvp_table_rows/cols to tell an out-of-range index from an empty cell). */
double zvp_table_value(const zvp_table *t, size_t i, size_t j);
/** Text of cell (i, j) as written (trimmed, quotes removed; "" for an empty cell); owned by
 *  the table. NULL when t is NULL or i or j is out of range. */
const char *zvp_table_text(const zvp_table *t, size_t i, size_t j);

/** zvp_table_row_line - the line (1-based, in the input as read) of data row i, for messages
 *  that name file:line; 0 when t is NULL or i >= rows. */
size_t zvp_table_row_line(const zvp_table *t, size_t i);

/**
 * zvp_unit_ratio - how a value in unit `from` (a CSV header unit) converts to unit `to` (a
 * model descriptor's unit): value_to = value_from * mul / div, where mul and div are whole
 * numbers (ms -> s: mul 1, div 1000, so 250 ms gives the double nearest 0.25).
 * A unit is `atom` or `atom/atom`. Known atoms: 1, % (= 0.01); s, ms, us, ns, min, h; B, KB,
 * kB, MB, GB, TB (decimal: GB = 1e9 bytes), KiB, MiB, GiB, TiB (binary: GiB = 2^30 bytes);
 * pages, kpages, Mpages; frames, kframes (counts of things: they also convert to the plain
 * number "1", so pages/s -> 1/s). Any other atom converts only to itself. An empty
 * `from` is taken as `to` (mul = div = 1); an empty `to` is "1".
 * @return ZVP_SUCCESS; ZVP_EINVAL (the units are not of the same kind: the message names
 *         both; NULL arguments). mul = div = 1 on failure.
 */
int zvp_unit_ratio(const char *from, const char *to, double *mul, double *div, zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_TABLE_H */
