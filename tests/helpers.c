/* tests/helpers.c - helpers shared by the test modules (declared in tests.h). Each helper
 * makes the same CUnit assertions the modules used to make in their own copies. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"

const zvp_model *zvp_test_find_model(const char *name)
{
    const zvp_model *m = zvp_model_find(name, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

const zvp_model *zvp_test_model(const char *name, size_t n_params)
{
    const zvp_model *m = zvp_test_find_model(name);
    CU_ASSERT_EQUAL_FATAL(m->n_params, n_params);
    return m;
}

void zvp_test_set_param(const zvp_model *m, double *p, const char *name, double v)
{
    long i = zvp_model_param_index(m, name, NULL);
    CU_ASSERT_FATAL(i >= 0);
    p[i] = v;
}

double zvp_test_output(const zvp_model *m, const double *out, const char *name)
{
    long i = zvp_model_output_index(m, name, NULL);
    CU_ASSERT_FATAL(i >= 0);
    return out[i];
}

int zvp_test_write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    fputs(text, fp);
    fclose(fp);
    return 0;
}

void zvp_test_write_file(const char *path, const char *text)
{
    CU_ASSERT_FATAL(zvp_test_write_text(path, text) == 0);
}

void zvp_test_read_params(const char *path, const char *model_name, double *p, size_t n_params)
{
    zvp_model_file *mf = NULL;
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(path, &mf, NULL), ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL_FATAL(zvp_model_file_model(mf)->name, model_name);
    memcpy(p, zvp_model_file_params(mf), n_params * sizeof(double));
    zvp_model_file_free(mf);
}

zvp_fit_result *zvp_test_run_fit(const char *path)
{
    zvp_fit *fit = NULL;
    zvp_fit_result *res = NULL;
    zvp_error err;
    zvp_error_clear(&err);
    int st = zvp_fit_read(path, &fit, &err);
    if (st)
        fprintf(stderr, "\n%s: %s\n", path, err.message);
    CU_ASSERT_EQUAL_FATAL(st, ZVP_SUCCESS);
    st = zvp_fit_run(fit, &res, &err);
    if (st)
        fprintf(stderr, "\n%s: %s\n", path, err.message);
    zvp_fit_free(fit);
    CU_ASSERT_EQUAL_FATAL(st, ZVP_SUCCESS);
    return res;
}

long zvp_test_col(const zvp_table *t, const char *name)
{
    long c = zvp_table_col_index(t, name, NULL);
    CU_ASSERT_FATAL(c >= 0);
    return c;
}

size_t zvp_test_row_where(const zvp_table *t, long col, double value)
{
    size_t r;
    for (r = 0; r < zvp_table_rows(t); r++)
        if (zvp_table_value(t, r, (size_t)col) == value)
            break;
    CU_ASSERT_FATAL(r < zvp_table_rows(t));
    return r;
}

size_t zvp_test_row_where_text(const zvp_table *t, long col, const char *text)
{
    size_t r;
    for (r = 0; r < zvp_table_rows(t); r++)
        if (!strcmp(zvp_table_text(t, r, (size_t)col), text))
            break;
    CU_ASSERT_FATAL(r < zvp_table_rows(t));
    return r;
}

void zvp_test_eval_ok(const zvp_model *m, const double *p, double *out, const char *label)
{
    zvp_error err = {0};
    int st = zvp_model_eval(m, p, out, &err);
    if (st != ZVP_SUCCESS)
        fprintf(stderr, "\n  %s eval: %s", label, err.message);
    CU_ASSERT_EQUAL_FATAL(st, ZVP_SUCCESS);
}

void zvp_test_expect_eval_error(const zvp_model *m, const double *p, double *out, int status, ...)
{
    zvp_error err = {0};
    va_list ap;
    const char *needle;
    CU_ASSERT_EQUAL(zvp_model_eval(m, p, out, &err), status);
    va_start(ap, status);
    while ((needle = va_arg(ap, const char *)) != NULL)
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, needle));
    va_end(ap);
}

int zvp_test_msg_has(const zvp_error *e, const char *needle)
{
    return strstr(e->message, needle) != NULL;
}

zvp_station zvp_test_station(int kind, int servers, unsigned replicas, double demand_s)
{
    zvp_station s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.servers = servers;
    s.replicas = replicas;
    s.demand_s = demand_s;
    return s;
}

void zvp_test_rel_error_add(zvp_test_rel_error *e, double rel)
{
    e->sum += rel;
    if (rel > e->worst)
        e->worst = rel;
    e->n++;
}

void zvp_test_rel_error_check(const zvp_test_rel_error *e, double max_rel, double mape_pct,
                              const char *file, const char *what)
{
    double mape = 100.0 * e->sum / (double)e->n;
    if (e->worst > max_rel || mape > mape_pct)
        fprintf(stderr, "\n  %s %s: worst %.2f%% (allowed %.2f%%), MAPE %.2f%% (allowed %.2f%%)",
                file, what, 100 * e->worst, 100 * max_rel, mape, mape_pct);
    CU_ASSERT(e->worst <= max_rel);
    CU_ASSERT(mape <= mape_pct);
}

double zvp_test_erlang_b(unsigned n, double a)
{
    double b = 1.0;
    for (unsigned j = 1; j <= n; j++)
        b = a * b / (j + a * b);
    return b;
}

double zvp_test_mm1_mean_in_system(double rho)
{
    return rho / (1.0 - rho);
}

double zvp_test_mm1_mean_in_queue(double rho)
{
    return rho * rho / (1.0 - rho);
}
