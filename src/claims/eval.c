/*
 * src/claims/eval.c - evaluating claims (include/zvmperf/claims.h): each model term through
 * zvp_model_eval at its model file's parameters with the term's overrides, the arithmetic,
 * then the relation. A point that is not ok, or a division by zero, makes the claim fail
 * with the reason; nothing here changes the set, so claims may be evaluated concurrently.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "claims/claims_impl.h"

/* One term: the output of its model at the file's parameters with the overrides. */
static int eval_term(const zvp_claims *set, const cl_term *t, double *v, char *why,
                     size_t why_len)
{
    zvp_model_file *mf = set->models[t->model].mf;
    const zvp_model *m = zvp_model_file_model(mf);
    double *p = malloc((m->n_params + m->n_outputs + 1) * sizeof *p), *out;
    zvp_error e;
    int st;
    if (!p) {
        snprintf(why, why_len, "out of memory");
        return ZVP_ENOMEM;
    }
    out = p + m->n_params;
    memcpy(p, zvp_model_file_params(mf), m->n_params * sizeof *p);
    for (size_t k = 0; k < t->n_over; k++)
        p[t->over_param[k]] = t->over_value[k];
    st = zvp_model_eval(m, p, out, &e);
    if (st == ZVP_SUCCESS)
        *v = out[t->output];
    else
        snprintf(why, why_len, "%s: %s", t->text, e.message[0] ? e.message : zvp_strerror(st));
    free(p);
    return st;
}

int cl_eval_node(const zvp_claims *set, const cl_node *n, double *v, char *why, size_t why_len)
{
    double a, b;
    int st;
    switch (n->op) {
    case CL_NUM:
        *v = n->num;
        return ZVP_SUCCESS;
    case CL_TERM:
        return eval_term(set, &n->term, v, why, why_len);
    case CL_NEG:
        if ((st = cl_eval_node(set, n->a, &a, why, why_len)))
            return st;
        *v = -a;
        return ZVP_SUCCESS;
    default:
        break;
    }
    if ((st = cl_eval_node(set, n->a, &a, why, why_len)) ||
        (st = cl_eval_node(set, n->b, &b, why, why_len)))
        return st;
    switch (n->op) {
    case CL_ADD:
        *v = a + b;
        break;
    case CL_SUB:
        *v = a - b;
        break;
    case CL_MUL:
        *v = a * b;
        break;
    default:
        if (b == 0) {
            snprintf(why, why_len, "division by zero (%.6g / 0)", a);
            return ZVP_EINVAL;
        }
        *v = a / b;
        break;
    }
    if (!isfinite(*v)) {
        snprintf(why, why_len, "the arithmetic overflows (not a finite number)");
        return ZVP_EINVAL;
    }
    return ZVP_SUCCESS;
}

/* Whether the relation holds; why says how it fails. */
static int relation_holds(const cl_claim *c, zvp_claim_result *r)
{
    static const char *const names[5] = {"<", "<=", ">", ">=", "~"};
    double l = r->lhs, h = r->rhs;
    int ok;
    switch (c->relation) {
    case CL_LT: ok = l < h; break;
    case CL_LE: ok = l <= h; break;
    case CL_GT: ok = l > h; break;
    case CL_GE: ok = l >= h; break;
    default:
        r->tolerance = c->tol_pct ? c->tol * fabs(h) / 100 : c->tol;
        if (c->tol_pct && !isfinite(r->tolerance)) /* tol * |rhs| overflowed: / 100 first */
            r->tolerance = c->tol / 100 * fabs(h);
        if (!isfinite(r->tolerance)) {
            snprintf(r->reason, sizeof r->reason, "the tolerance %.6g%% of |rhs| = %.6g "
                     "overflows (not a finite number)", c->tol, fabs(h));
            return 0;
        }
        ok = fabs(l - h) <= r->tolerance;
        if (!ok)
            snprintf(r->reason, sizeof r->reason, "|lhs - rhs| = |%.6g - %.6g| = %.6g > "
                     "tolerance %.6g%s", l, h, fabs(l - h), r->tolerance,
                     c->tol_pct ? " (the percentage of |rhs|)" : "");
        return ok;
    }
    if (!ok)
        snprintf(r->reason, sizeof r->reason, "lhs %.6g %s rhs %.6g does not hold", l,
                 names[c->relation], h);
    return ok;
}

int zvp_claim_eval(const zvp_claims *c, size_t i, zvp_claim_result *out, zvp_error *err)
{
    const cl_claim *k;
    char why[ZVP_ERRMSG_MAX];
    int st;
    if (!c || !out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_claim_eval: claims or out is NULL");
    if (i >= c->n)
        return zvp_fail(err, ZVP_EINVAL, "zvp_claim_eval: claim index %zu is out of range "
                        "[0, %zu)", i, c->n);
    k = &c->claims[i];
    out->lhs = out->rhs = out->tolerance = NAN;
    out->pass = 0;
    out->reason[0] = '\0';
    why[0] = '\0';
    if ((st = cl_eval_node(c, k->lhs, &out->lhs, why, sizeof why))) {
        out->lhs = NAN;
        snprintf(out->reason, sizeof out->reason, "lhs: %s", why);
    }
    if (st != ZVP_ENOMEM && (st = cl_eval_node(c, k->rhs, &out->rhs, why, sizeof why))) {
        out->rhs = NAN;
        if (!out->reason[0])
            snprintf(out->reason, sizeof out->reason, "rhs: %s", why);
    }
    if (st == ZVP_ENOMEM)
        return zvp_fail(err, ZVP_ENOMEM, "claim %s: out of memory", k->cell[0]);
    if (out->reason[0])
        return ZVP_SUCCESS;
    out->pass = relation_holds(k, out);
    return ZVP_SUCCESS;
}
