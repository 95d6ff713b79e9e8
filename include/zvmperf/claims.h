/*
 * zvmperf/claims.h - claims: statements of the reports as tests of the calibrated models.
 *
 * A claims file (calibration/claims/README.md) is a CSV table with the header, exactly,
 *
 *     id,kind,source,statement,lhs,relation,rhs,tolerance
 *
 * one claim per row: `lhs RELATION rhs`, where lhs and rhs are arithmetic expressions
 * (+ - * /, unary minus, parentheses, decimal numbers) over model terms
 *
 *     MODEL:OUTPUT  or  MODEL:OUTPUT[NAME=VALUE;NAME=VALUE...]
 *
 * MODEL is resolved as zvp_model_file_open resolves a model argument (a path, a calibrated
 * file NAME.ini in the search directories, or a registered model with its defaults); the
 * term is the output OUTPUT (in the model descriptor's unit) of zvp_model_eval at the
 * model file's parameters with the bracket's overrides. RELATION is one of < <= > >=
 * (tolerance empty: must hold as written) or ~ (|lhs - rhs| <= tolerance, where tolerance
 * is a number >= 0 in the unit of lhs, or `N%`: N percent of |rhs|). kind is `fitted` (the
 * calibration behind a model file the claim evaluates used the numbers behind it),
 * `predicted` (none of those calibrations did) or `identity` (the models meet it by
 * construction whatever their parameters: evaluated like the others, but not a test).
 * Claim ids are unique over all the files of one set.
 *
 * Everything that can be checked without evaluating a model is checked when the files are
 * read (header, kind, relation, tolerance, expression syntax, model, output and parameter
 * names, override values against the parameter ranges, duplicate ids): those are errors.
 * What happens at evaluation (a point with no steady state, a model refusing its inputs,
 * a division by zero, a relation that does not hold) makes the claim fail, with the reason;
 * it is not an error. Source: the statements of the reports, each cited in its claim's
 * `source` cell (report number, table or text) and quoted in its `statement` cell.
 *
 * There is no global state: a zvp_claims set is read-only after zvp_claims_read, and
 * zvp_claim_eval may be called on one set from several threads at once.
 */
#ifndef ZVMPERF_CLAIMS_H
#define ZVMPERF_CLAIMS_H

#include <stddef.h>
#include "status.h"
#include "modelfile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The header of a claims file, exactly (column names in this order). */
#define ZVP_CLAIMS_HEADER "id,kind,source,statement,lhs,relation,rhs,tolerance"

/* A set of claims read from one or more files, with the model files its terms use (each
 * distinct MODEL loaded once). Opaque handle. */
typedef struct zvp_claims zvp_claims;

/* How zvp_claims_read resolves MODEL in a term. */
typedef struct zvp_claims_options {
    /* directories searched, in order, for a calibrated file MODEL.ini (a MODEL without '/');
     * NULL (n_search_dirs 0): the one directory "calibration/params" (relative to the
     * working directory). The CLI passes the search path of `zvmperf eval`. */
    const char *const *search_dirs;
    size_t n_search_dirs;
} zvp_claims_options;

/* One claim as written (strings owned by the set; trimmed, quotes removed). */
typedef struct zvp_claim_info {
    const char *id;        /* e.g. "000-paging-cm4-delta-512" */
    const char *kind;      /* "fitted", "predicted" or "identity" */
    const char *source;    /* e.g. "report 000, Table 5, CM4 Users Priming Time at 512 GB" */
    const char *statement; /* the report's words */
    const char *lhs;       /* expression text */
    const char *relation;  /* "<", "<=", ">", ">=" or "~" */
    const char *rhs;       /* expression text */
    const char *tolerance; /* as written: "" (inequalities), "3" or "10%" */
    const char *file;      /* the claims file it was read from (as given) */
    size_t line;           /* its line in that file (1-based) */
    int predicted;         /* 1 for kind "predicted", 0 for "fitted" and "identity" */
} zvp_claim_info;

/* The outcome of one claim (zvp_claim_eval). */
typedef struct zvp_claim_result {
    double lhs, rhs;   /* values of the two sides (in the unit of the lhs terms); NaN when a
                          side could not be evaluated */
    double tolerance;  /* the absolute tolerance applied for ~ (N% resolved against |rhs|);
                          NaN for an inequality */
    int pass;          /* 1: the claim holds; 0: it fails (reason says why) */
    char reason[ZVP_ERRMSG_MAX]; /* "" when it holds; else e.g. "|lhs - rhs| = 4.1 > tolerance
                          3", "paging-zvm63:... : no steady state ...", "division by zero in
                          rhs" */
} zvp_claim_result;

/**
 * zvp_claims_read - read and check claims files into one set.
 * @param[in]  paths    n_paths file paths ("-" is standard input, at most once); n_paths >= 1.
 * @param[in]  opt      how MODEL is resolved (NULL: the defaults above).
 * @param[out] out      new set (free with zvp_claims_free); NULL on failure.
 * @return ZVP_SUCCESS; ZVP_EIO (a file that cannot be read; a model file that cannot be
 *         read); ZVP_EPARSE (not a CSV table, a header other than ZVP_CLAIMS_HEADER, an empty
 *         required cell, an id not of the form NNN-name, a kind other than fitted|predicted|identity,
 *         a relation other than < <= > >= ~, a tolerance given for an inequality or missing
 *         for ~, a tolerance that is not a number >= 0 or N%, an expression syntax error
 *         naming the bad token, its column and what is allowed there); ZVP_ENOTFOUND (an
 *         unknown model, output or parameter name: the message lists the valid ones);
 *         ZVP_EINVAL (NULL arguments, n_paths 0; a duplicate id, naming both file:line; an
 *         override value out of the parameter's range, naming it, its value and the range;
 *         a parameter given twice in one bracket). Every message starts with FILE:LINE and,
 *         once the id is known, names the claim.
 * Thread safety: reentrant.
 */
int zvp_claims_read(const char *const *paths, size_t n_paths, const zvp_claims_options *opt,
                    zvp_claims **out, zvp_error *err);

/** zvp_claims_free - free a set; NULL is a no-op. */
void zvp_claims_free(zvp_claims *c);

/** zvp_claims_count - number of claims in the set (0 for NULL), in file order. */
size_t zvp_claims_count(const zvp_claims *c);

/** zvp_claims_models - number of distinct model files the set loaded (0 for NULL). */
size_t zvp_claims_models(const zvp_claims *c);

/**
 * zvp_claims_model - model k of the set (0 <= k < zvp_claims_models), in the order first
 * used: *name receives MODEL as written in the terms, *file the model file read, or "" when
 * MODEL is a registered model with its uncalibrated defaults (a caller may want to say so:
 * a misspelt calibrated name that is also a model name falls back to the defaults). Strings
 * owned by the set; name or file may be NULL.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL c, k out of range: the message gives the count).
 */
int zvp_claims_model(const zvp_claims *c, size_t k, const char **name, const char **file,
                     zvp_error *err);

/**
 * zvp_claims_info - claim i as written (0 <= i < zvp_claims_count).
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL, i out of range: the message gives the count).
 */
int zvp_claims_info(const zvp_claims *c, size_t i, zvp_claim_info *out, zvp_error *err);

/**
 * zvp_claims_index - the index of the claim with this id, or -1 with ZVP_ENOTFOUND (the
 * message names the id and the number of claims) or ZVP_EINVAL (NULL arguments).
 */
long zvp_claims_index(const zvp_claims *c, const char *id, zvp_error *err);

/**
 * zvp_claim_eval - evaluate claim i: both sides (each term through zvp_model_eval), then
 * the relation. A claim that does not hold, or cannot be evaluated (a point that is not
 * ok: no steady state or refused inputs, with the model's message; a division by zero), is
 * a result with pass = 0 and its reason, not an error.
 * @param[out] out  the outcome (lhs, rhs, tolerance, pass, reason).
 * @return ZVP_SUCCESS (whether or not the claim holds); ZVP_EINVAL (NULL, i out of range);
 *         ZVP_ENOMEM.
 * Thread safety: reentrant; concurrent calls on one set are safe.
 */
int zvp_claim_eval(const zvp_claims *c, size_t i, zvp_claim_result *out, zvp_error *err);

/**
 * zvp_model_file_open - resolve a model argument the way `zvmperf eval MODEL` does (apart
 * from "-", which only the command line reads):
 *   1. an existing path, or an argument containing '/': that model file;
 *   2. a bare NAME: NAME.ini (NAME when it ends in ".ini") in dirs[0], dirs[1], ... (the
 *      first readable one);
 *   3. a registered model NAME: a handle with its default (uncalibrated) parameters.
 * @param[in]  arg        the argument, not NULL, not empty.
 * @param[in]  dirs       n_dirs directories (may be NULL when n_dirs is 0).
 * @param[out] out        new handle (free with zvp_model_file_free); NULL on failure.
 * @param[out] found      if not NULL, receives (cut to found_len) the file read, or "" for
 *                        a registered model's defaults.
 * @return ZVP_SUCCESS; as zvp_model_file_read for a file; ZVP_ENOTFOUND (neither a file,
 *         nor a calibrated file in dirs, nor a registered model: the message names the
 *         directories searched and lists the registered models); ZVP_EINVAL (NULL or empty
 *         arg, NULL out); ZVP_ENOMEM.
 * Thread safety: reentrant.
 */
int zvp_model_file_open(const char *arg, const char *const *dirs, size_t n_dirs,
                        zvp_model_file **out, char *found, size_t found_len, zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_CLAIMS_H */
