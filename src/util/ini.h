/*
 * src/util/ini.h - the library's one INI reader (private; model files and fit files).
 *
 * The input is read once into memory (a regular file, a pipe, a FIFO or standard input given
 * as "-"), up to a size limit, and split into entries in file order. There is no line-length
 * limit. Syntax:
 *   - a UTF-8 byte-order mark at the start is skipped; lines end in LF or CRLF;
 *   - blank lines and lines whose first non-blank character is ';' or '#' are comments;
 *   - "[section]" starts a section (text after the closing ']' must be empty or a comment);
 *   - "key = value": key and value are trimmed of blanks; in the value, a ';' preceded by a
 *     blank starts a comment that runs to the end of the line;
 *   - anything else (a line without '=', an empty key, a NUL byte, an unclosed '[') is an
 *     error naming the input and the line.
 * Entries before the first section have section "".
 */
#ifndef ZVP_UTIL_INI_H
#define ZVP_UTIL_INI_H

#include <stddef.h>
#include "zvmperf/status.h"

/* Default size limit for model files and fit files (bytes). */
#define ZVP_INI_MAX_BYTES ((size_t)64 << 20)

typedef struct zvp_ini_entry {
    const char *section; /* "" before the first [section] */
    const char *key;     /* non-empty */
    const char *value;   /* may be empty */
    size_t line;         /* 1-based line number */
} zvp_ini_entry;

typedef struct zvp_ini {
    char *name;               /* the path as given ("-" reads as "<stdin>"), for messages */
    char *text;               /* the whole input as read, NUL-terminated */
    size_t text_len;          /* bytes of text (without the terminating NUL) */
    zvp_ini_entry *entries;   /* [n_entries] in file order */
    size_t n_entries;
    char *store;              /* backing storage of the entries' strings */
} zvp_ini;

/**
 * zvp_read_input - read a whole input once: path, or "-" for standard input.
 * @param[in]  path      file path or "-" (NULL: ZVP_EINVAL)
 * @param[in]  max_bytes inputs longer than this are refused with ZVP_EIO naming the limit
 * @param[out] text      malloc'd, NUL-terminated contents (caller frees)
 * @param[out] len       bytes read (embedded NUL bytes are kept; callers decide)
 * @return ZVP_SUCCESS; ZVP_EIO (cannot open, is a directory, read error, too large, with the
 *         path and the system's reason); ZVP_ENOMEM.
 */
int zvp_read_input(const char *path, size_t max_bytes, char **text, size_t *len, zvp_error *err);

/**
 * zvp_ini_parse - parse INI text (len bytes, need not be NUL-terminated) named `name` in
 * messages. *out gets a new reader (free with zvp_ini_free).
 * @return ZVP_SUCCESS; ZVP_EPARSE "<name>:<line>: <reason>"; ZVP_ENOMEM; ZVP_EINVAL (NULL).
 */
int zvp_ini_parse(const char *name, const char *text, size_t len, zvp_ini **out, zvp_error *err);

/** zvp_ini_read - zvp_read_input + zvp_ini_parse. "-" reads standard input. */
int zvp_ini_read(const char *path, size_t max_bytes, zvp_ini **out, zvp_error *err);

/** zvp_ini_free - free a reader (NULL is allowed). */
void zvp_ini_free(zvp_ini *ini);

/**
 * zvp_ini_find_duplicate - first repeated (section, key) pair, found by sorting (O(n log n)).
 * @return 1 and the entry indices in *first < *second (file order) when a key repeats within
 *         its section; 0 when none does; -1 when out of memory.
 */
int zvp_ini_find_duplicate(const zvp_ini *ini, size_t *first, size_t *second);

#endif
