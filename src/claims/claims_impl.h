/*
 * src/claims/claims_impl.h - the claims evaluator's private structures: expression trees,
 * model terms, claims and the set (include/zvmperf/claims.h is the public interface).
 */
#ifndef ZVMPERF_CLAIMS_IMPL_H
#define ZVMPERF_CLAIMS_IMPL_H

#include <stddef.h>
#include "zvmperf/claims.h"
#include "zvmperf/model.h"

/* Expression nodes. */
enum { CL_NUM, CL_TERM, CL_NEG, CL_ADD, CL_SUB, CL_MUL, CL_DIV };

/* A model term MODEL:OUTPUT[NAME=VALUE;...]: the model (index into the set's models), the
 * output index and the overrides (parameter index, value). */
typedef struct cl_term {
    size_t model;
    size_t output;
    size_t n_over;
    size_t *over_param;
    double *over_value;
    char *text;        /* the term as written, for messages */
} cl_term;

typedef struct cl_node {
    int op;
    double num;              /* CL_NUM */
    cl_term term;            /* CL_TERM */
    struct cl_node *a, *b;   /* operands (CL_NEG: a only) */
} cl_node;

/* A model as loaded (each distinct MODEL text once). */
typedef struct cl_model {
    char *name;              /* MODEL as written in the terms */
    char *file;              /* the file read ("" for a registered model's defaults) */
    zvp_model_file *mf;
} cl_model;

/* Relations. */
enum { CL_LT, CL_LE, CL_GT, CL_GE, CL_APPROX };

typedef struct cl_claim {
    char *cell[8];           /* id, kind, source, statement, lhs, relation, rhs, tolerance */
    const char *file;        /* owned by the set (files[]) */
    size_t line;
    int predicted;
    int relation;
    double tol;              /* tolerance value (absolute, or percent when tol_pct) */
    int tol_pct;
    cl_node *lhs, *rhs;
} cl_claim;

struct zvp_claims {
    cl_claim *claims;
    size_t n, cap;
    cl_model *models;
    size_t n_models, cap_models;
    char **files;            /* the paths as given */
    size_t n_files;
    const char *const *dirs; /* during reading only: the search directories */
    size_t n_dirs;
};

/* Context of one expression being parsed, for messages: "FILE:LINE: claim ID: COLUMN: ". */
typedef struct cl_where {
    const char *file;
    size_t line;
    const char *id;
    const char *column;      /* "lhs" or "rhs" */
} cl_where;

/* Parse an expression (src/claims/parse.c); model terms are resolved through
 * cl_model_load (the set's model cache) and checked (output and parameter names, override
 * ranges). *out: the tree (free with cl_node_free). Library status; message in err. */
int cl_parse_expr(zvp_claims *set, const cl_where *w, const char *text, cl_node **out,
                  zvp_error *err);
void cl_node_free(cl_node *n);

/* The index of MODEL in the set's models, loading it on first use (claims.c). */
int cl_model_load(zvp_claims *set, const char *name, size_t *index, zvp_error *err);

/* Evaluate a tree (eval.c): *v, or a nonzero status with the reason in why (a point that
 * is not ok, a division by zero); ZVP_ENOMEM. */
int cl_eval_node(const zvp_claims *set, const cl_node *n, double *v, char *why, size_t why_len);

#endif
