/* tests/fit_fixtures.c - helpers of tests/fit_fixtures.h. */
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "fit_fixtures.h"

int zvp_test_file_contains(const char *path, const char *needle)
{
    char buf[16384];
    size_t n;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

const char *zvp_test_write_fit(const char *name, const char *text, char *path, size_t size)
{
    snprintf(path, size, "%s/%s.ini", ZVP_TEST_TMPDIR, name);
    zvp_test_write_text(path, text);
    return path;
}

zvp_fit_result *zvp_test_run_fit_text(const char *name, const char *text)
{
    char path[256];
    zvp_test_write_fit(name, text, path, sizeof path);
    return zvp_test_run_fit(path);
}
