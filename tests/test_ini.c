/* tests/test_ini.c - the INI reader (src/util/ini.c): syntax, limits and duplicates. */
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "tests.h"
#include "internal.h"
#include "util/ini.h"

static zvp_ini *parse_ok(const char *text)
{
    zvp_ini *ini = NULL;
    zvp_error e = {0};
    CU_ASSERT_EQUAL_FATAL(zvp_ini_parse("t.ini", text, strlen(text), &ini, &e), ZVP_SUCCESS);
    return ini;
}

static void test_ini_syntax(void)
{
    zvp_ini *ini = parse_ok("\xEF\xBB\xBF; comment\r\ntop = 1\n[model]\r\n  name =  sweetspot ; note\n"
                            "# another\n[ parameters ] ; trailing\nx=2;3\nempty =\nurl = a;b ;c\n");
    CU_ASSERT_EQUAL_FATAL(ini->n_entries, 5);
    CU_ASSERT_STRING_EQUAL(ini->entries[0].section, "");
    CU_ASSERT_STRING_EQUAL(ini->entries[0].key, "top");
    CU_ASSERT_EQUAL(ini->entries[0].line, 2);
    CU_ASSERT_STRING_EQUAL(ini->entries[1].section, "model");
    CU_ASSERT_STRING_EQUAL(ini->entries[1].value, "sweetspot");
    CU_ASSERT_EQUAL(ini->entries[1].line, 4);
    CU_ASSERT_STRING_EQUAL(ini->entries[2].section, "parameters");
    CU_ASSERT_STRING_EQUAL(ini->entries[2].value, "2;3"); /* ';' without a blank before it stays */
    CU_ASSERT_STRING_EQUAL(ini->entries[3].value, "");
    CU_ASSERT_STRING_EQUAL(ini->entries[4].value, "a;b");
    zvp_ini_free(ini);
    ini = parse_ok("");
    CU_ASSERT_EQUAL(ini->n_entries, 0);
    zvp_ini_free(ini);
}

/* A line far longer than a fixed line buffer is one line: a comment ending in "servers = 7"
 * sets nothing, and a long value is kept whole. */
static void test_ini_long_lines(void)
{
    size_t n = 100000;
    char *text = malloc(2 * n + 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *p = text;
    *p++ = ';';
    memset(p, 'x', n);
    p += n;
    p += sprintf(p, " servers = 7\n[s]\nk = ");
    memset(p, 'v', n);
    p += n;
    strcpy(p, "\n");
    zvp_ini *ini = parse_ok(text);
    CU_ASSERT_EQUAL_FATAL(ini->n_entries, 1);
    CU_ASSERT_STRING_EQUAL(ini->entries[0].key, "k");
    CU_ASSERT_EQUAL(strlen(ini->entries[0].value), n);
    CU_ASSERT_EQUAL(ini->entries[0].line, 3);
    zvp_ini_free(ini);
    free(text);
}

static void expect_parse_error(const char *text, size_t len, const char *words)
{
    zvp_ini *ini = NULL;
    zvp_error e = {0};
    CU_ASSERT_EQUAL(zvp_ini_parse("bad.ini", text, len, &ini, &e), ZVP_EPARSE);
    CU_ASSERT_PTR_NULL(ini);
    CU_ASSERT(zvp_test_msg_has(&e, words));
}

static void test_ini_errors(void)
{
    expect_parse_error("[a]\nno equals here\n", 18, "bad.ini:2:");
    expect_parse_error("[a\n", 3, "without ']'");
    expect_parse_error("[a] junk\n", 9, "after the section header");
    expect_parse_error(" = 3\n", 5, "empty key");
    expect_parse_error("a = 1\nb = x\0y\n", 13, "bad.ini:2: NUL byte");
}

static void test_ini_duplicates(void)
{
    zvp_ini *ini = parse_ok("[a]\nx = 1\ny = 2\n[b]\nx = 3\n[a]\nz = 4\ny = 5\nx = 6\n");
    size_t i = 99, j = 99;
    CU_ASSERT_EQUAL(zvp_ini_find_duplicate(ini, &i, &j), 1);
    /* the earliest second occurrence: [a] y on line 8 (entry 4), first seen as entry 1 */
    CU_ASSERT_EQUAL(i, 1);
    CU_ASSERT_EQUAL(j, 4);
    zvp_ini_free(ini);
    ini = parse_ok("[a]\nx = 1\n[b]\nx = 1\n");
    CU_ASSERT_EQUAL(zvp_ini_find_duplicate(ini, &i, &j), 0);
    zvp_ini_free(ini);
}

static void test_ini_read_limits(void)
{
    const char *path = ZVP_TEST_TMPDIR "/ini_limit.ini";
    zvp_test_write_file(path, "[model]\nname = mmc\n");
    zvp_ini *ini = NULL;
    zvp_error e = {0};
    CU_ASSERT_EQUAL(zvp_ini_read(path, 1000, &ini, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(ini ? ini->n_entries : 0, 1);
    CU_ASSERT(ini && ini->text_len == 19 && strcmp(ini->text, "[model]\nname = mmc\n") == 0);
    zvp_ini_free(ini);
    ini = NULL;
    CU_ASSERT_EQUAL(zvp_ini_read(path, 10, &ini, &e), ZVP_EIO);
    CU_ASSERT(zvp_test_msg_has(&e, "limit of 10 bytes"));
    CU_ASSERT_EQUAL(zvp_ini_read(ZVP_TEST_TMPDIR, 1000, &ini, &e), ZVP_EIO);
    CU_ASSERT(zvp_test_msg_has(&e, "directory"));
    CU_ASSERT_EQUAL(zvp_ini_read(ZVP_TEST_TMPDIR "/no/such.ini", 1000, &ini, &e), ZVP_EIO);
    CU_ASSERT(zvp_test_msg_has(&e, "cannot open"));
    /* /dev/zero never ends: the limit stops it */
    CU_ASSERT_EQUAL(zvp_ini_read("/dev/zero", 1 << 20, &ini, &e), ZVP_EIO);
    CU_ASSERT_PTR_NULL(ini);
}

int zvp_test_register_ini(void)
{
    CU_pSuite s = CU_add_suite("ini reader", NULL, NULL);
    if (!s || !CU_add_test(s, "syntax", test_ini_syntax) ||
        !CU_add_test(s, "long lines", test_ini_long_lines) ||
        !CU_add_test(s, "errors", test_ini_errors) ||
        !CU_add_test(s, "duplicates", test_ini_duplicates) ||
        !CU_add_test(s, "read limits", test_ini_read_limits))
        return 1;
    return 0;
}
