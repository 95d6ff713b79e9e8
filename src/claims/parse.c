/*
 * src/claims/parse.c - the expression language of claims files, by recursive descent:
 *
 *     expr    := product (('+' | '-') product)*
 *     product := unary (('*' | '/') unary)*
 *     unary   := ('-' | '+') unary | primary
 *     primary := NUMBER | term | '(' expr ')'
 *     term    := MODEL ':' OUTPUT [ '[' NAME '=' VALUE (';' NAME '=' VALUE)* ']' ]
 *
 * Blanks (space, tab) separate tokens anywhere. NUMBER and VALUE follow the library's number
 * grammar (zvp_parse_double: decimal, optional exponent; VALUE may carry a sign). MODEL
 * starts with a letter, '_', '.' or '/' and runs over letters, digits and _ . - / up to the
 * ':' (model names such as sweetspot-zvm64 contain '-'); OUTPUT and NAME are identifiers
 * (letters, digits, '_'; not starting with a digit), so a '-' after OUTPUT or ']' is a minus.
 * Usual precedence: unary minus binds tighter than * and /, which bind tighter than + and -;
 * operators of one level associate to the left.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/decimal.h"
#include "claims/claims_impl.h"

typedef struct parser {
    zvp_claims *set;
    const cl_where *w;
    const char *text, *p;
    zvp_error *err;
    int depth;
    int operators;
} parser;

#define MAX_DEPTH 200
/* Binary operators in one expression: evaluating and freeing recurse along the tree, and a
 * chain 1+1+...+1 is as deep as it is long (a million of them overflowed the stack). */
#define MAX_OPERATORS 1000

void cl_node_free(cl_node *n)
{
    if (!n)
        return;
    cl_node_free(n->a);
    cl_node_free(n->b);
    free(n->term.over_param);
    free(n->term.over_value);
    free(n->term.text);
    free(n);
}

static void skip_blanks(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t')
        ps->p++;
}

/* "FILE:LINE: claim ID: COLUMN: " then the formatted text. */
static int fail(parser *ps, int status, const char *fmt, ...) ZVP_PRINTF(3, 4);
static int fail(parser *ps, int status, const char *fmt, ...)
{
    char msg[ZVP_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return zvp_fail(ps->err, status, "%s:%zu: claim %s: %s: %s", ps->w->file, ps->w->line,
                    ps->w->id, ps->w->column, msg);
}

/* The token at p, for messages: the end of the text, one character, or up to 24
 * characters of a word. */
static void token_at(const char *p, char *buf, size_t len)
{
    size_t n = 0;
    if (*p == '\0') {
        snprintf(buf, len, "end of expression");
        return;
    }
    if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.') {
        snprintf(buf, len, "'%c'", *p);
        return;
    }
    while ((isalnum((unsigned char)p[n]) || strchr("_.-/", p[n]) != NULL) && p[n] && n < 24)
        n++;
    snprintf(buf, len, "'%.*s'", (int)n, p);
}

static int unexpected(parser *ps, const char *expected)
{
    char tok[40];
    token_at(ps->p, tok, sizeof tok);
    return fail(ps, ZVP_EPARSE, "unexpected %s at column %zu of '%s' (expected %s)", tok,
                (size_t)(ps->p - ps->text) + 1, ps->text, expected);
}

static cl_node *new_node(parser *ps, int op)
{
    cl_node *n = calloc(1, sizeof *n);
    if (!n)
        fail(ps, ZVP_ENOMEM, "out of memory");
    else
        n->op = op;
    return n;
}

static int is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* A number token (digits, '.', exponent) at p: its length, 0 when there is none. */
static size_t number_len(const char *p)
{
    size_t n = 0, digits = 0;
    while (isdigit((unsigned char)p[n]) || p[n] == '.')
        digits += isdigit((unsigned char)p[n++]) != 0;
    if (!digits)
        return 0;
    if ((p[n] == 'e' || p[n] == 'E') &&
        (isdigit((unsigned char)p[n + 1]) ||
         ((p[n + 1] == '+' || p[n + 1] == '-') && isdigit((unsigned char)p[n + 2])))) {
        n += 2;
        while (isdigit((unsigned char)p[n]))
            n++;
    }
    return n;
}

/* Read a number of n characters at ps->p into *v (the library's grammar). A number beyond
 * the double range is named as such, in the words of the CLI's NAME=VALUE (util/decimal.h). */
static int read_number(parser *ps, size_t n, double *v)
{
    char buf[128] = "";
    zvp_decimal_kind k = ZVP_DECIMAL_NOT_NUMBER;
    if (n < sizeof buf) {
        memcpy(buf, ps->p, n);
        buf[n] = '\0';
        k = zvp_decimal_read(buf, v);
    }
    if (k == ZVP_DECIMAL_OVERFLOW || k == ZVP_DECIMAL_UNDERFLOW)
        return fail(ps, ZVP_EPARSE, "'%.*s' at column %zu %s", (int)n, ps->p,
                    (size_t)(ps->p - ps->text) + 1, zvp_decimal_phrase(k));
    if (k != ZVP_DECIMAL_OK)
        return fail(ps, ZVP_EPARSE, "'%.*s' at column %zu is not a finite decimal number", (int)n,
                    ps->p, (size_t)(ps->p - ps->text) + 1);
    ps->p += n;
    return ZVP_SUCCESS;
}

static int parse_expr(parser *ps, cl_node **out);

/* One override NAME=VALUE of a term for model m; appended to t. */
static int parse_override(parser *ps, const zvp_model *m, cl_term *t)
{
    char name[128];
    size_t n = 0, k;
    double v;
    int sign = 1;
    long idx;
    zvp_error e;
    skip_blanks(ps);
    if (!is_ident_start(*ps->p))
        return unexpected(ps, "a parameter NAME in NAME=VALUE");
    while (is_ident(ps->p[n]))
        n++;
    if (n >= sizeof name)
        return fail(ps, ZVP_EPARSE, "parameter name '%.*s...' is too long", 24, ps->p);
    memcpy(name, ps->p, n);
    name[n] = '\0';
    ps->p += n;
    if ((idx = zvp_model_param_index(m, name, &e)) < 0)
        return fail(ps, ZVP_ENOTFOUND, "in %s: %s", t->text, e.message);
    for (k = 0; k < t->n_over; k++)
        if (t->over_param[k] == (size_t)idx)
            return fail(ps, ZVP_EINVAL, "in %s: parameter %s is given twice", t->text, name);
    skip_blanks(ps);
    if (*ps->p != '=')
        return unexpected(ps, "'=' after the parameter name");
    ps->p++;
    skip_blanks(ps);
    if (*ps->p == '-' || *ps->p == '+')
        sign = *ps->p++ == '-' ? -1 : 1;
    if ((n = number_len(ps->p)) == 0)
        return unexpected(ps, "a number after NAME=");
    if (read_number(ps, n, &v))
        return ZVP_EPARSE;
    v *= sign;
    if (zvp_check_param(t->text, &m->params[idx], v, &e))
        return fail(ps, ZVP_EINVAL, "%s", e.message);
    t->over_param[t->n_over] = (size_t)idx;
    t->over_value[t->n_over++] = v;
    skip_blanks(ps);
    return ZVP_SUCCESS;
}

/* The bracket [NAME=VALUE;...] of a term (ps->p at '['). */
static int parse_bracket(parser *ps, const zvp_model *m, cl_term *t)
{
    if (!(t->over_param = malloc((m->n_params + 1) * sizeof *t->over_param)) ||
        !(t->over_value = malloc((m->n_params + 1) * sizeof *t->over_value)))
        return fail(ps, ZVP_ENOMEM, "out of memory");
    ps->p++;
    for (;;) {
        int st;
        if (t->n_over == m->n_params)
            return fail(ps, ZVP_EINVAL, "in %s: more overrides than the %zu parameters of %s",
                        t->text, m->n_params, m->name);
        if ((st = parse_override(ps, m, t)))
            return st;
        if (*ps->p == ']') {
            ps->p++;
            return ZVP_SUCCESS;
        }
        if (*ps->p != ';')
            return unexpected(ps, "';' between overrides or ']' to close them");
        ps->p++;
    }
}

/* MODEL:OUTPUT[...] at ps->p (which starts a model name). */
static int parse_term(parser *ps, cl_node **out)
{
    const char *start = ps->p, *colon;
    char model[1024], output[128];
    size_t n = 0, mi;
    long oi;
    zvp_error e;
    const zvp_model *m;
    cl_node *node;
    int st;
    while (ps->p[n] != '\0' && (isalnum((unsigned char)ps->p[n]) || strchr("_.-/", ps->p[n]) != NULL))
        n++;
    colon = ps->p + n;
    if (*colon != ':') {
        ps->p = colon;
        return unexpected(ps, "':' after the model name (a term is MODEL:OUTPUT)");
    }
    if (n >= sizeof model)
        return fail(ps, ZVP_EPARSE, "model name '%.*s...' is too long", 24, start);
    memcpy(model, start, n);
    model[n] = '\0';
    ps->p = colon + 1;
    if (!is_ident_start(*ps->p))
        return unexpected(ps, "an OUTPUT name after 'MODEL:'");
    for (n = 0; is_ident(ps->p[n]); n++)
        ;
    if (n >= sizeof output)
        return fail(ps, ZVP_EPARSE, "output name '%.*s...' is too long", 24, ps->p);
    memcpy(output, ps->p, n);
    output[n] = '\0';
    ps->p += n;
    if ((st = cl_model_load(ps->set, model, &mi, &e)))
        return fail(ps, st, "%s", e.message);
    m = zvp_model_file_model(ps->set->models[mi].mf);
    if ((oi = zvp_model_output_index(m, output, &e)) < 0)
        return fail(ps, ZVP_ENOTFOUND, "in %s:%s: %s", model, output, e.message);
    if (!(node = new_node(ps, CL_TERM)))
        return ZVP_ENOMEM;
    node->term.model = mi;
    node->term.output = (size_t)oi;
    *out = node;
    /* the term's text: up to the end of the bracket when there is one */
    if (*ps->p == '[') {
        const char *close = strchr(ps->p, ']');
        size_t len = close ? (size_t)(close - start) + 1 : strlen(start);
        node->term.text = malloc(len + 1);
        if (node->term.text) {
            memcpy(node->term.text, start, len);
            node->term.text[len] = '\0';
        }
    } else {
        node->term.text = malloc((size_t)(ps->p - start) + 1);
        if (node->term.text) {
            memcpy(node->term.text, start, (size_t)(ps->p - start));
            node->term.text[ps->p - start] = '\0';
        }
    }
    if (!node->term.text)
        return fail(ps, ZVP_ENOMEM, "out of memory");
    if (*ps->p == '[')
        return parse_bracket(ps, m, &node->term);
    return ZVP_SUCCESS;
}

static int parse_primary(parser *ps, cl_node **out)
{
    size_t n;
    int st;
    skip_blanks(ps);
    if (*ps->p == '(') {
        ps->p++;
        if ((st = parse_expr(ps, out)))
            return st;
        skip_blanks(ps);
        if (*ps->p != ')')
            return unexpected(ps, "')' or an operator + - * /");
        ps->p++;
        return ZVP_SUCCESS;
    }
    if ((n = number_len(ps->p)) > 0) {
        cl_node *node = new_node(ps, CL_NUM);
        if (!node)
            return ZVP_ENOMEM;
        *out = node;
        return read_number(ps, n, &node->num);
    }
    if (is_ident_start(*ps->p) || *ps->p == '/' || (*ps->p == '.' && ps->p[1] == '/'))
        return parse_term(ps, out);
    return unexpected(ps, "a number, a term MODEL:OUTPUT[NAME=VALUE;...], '(' or a sign");
}

static int parse_unary(parser *ps, cl_node **out)
{
    int st;
    skip_blanks(ps);
    if (*ps->p == '-' || *ps->p == '+') {
        int neg = *ps->p == '-';
        cl_node *node;
        ps->p++;
        if (++ps->depth > MAX_DEPTH)
            return fail(ps, ZVP_EPARSE, "expression nested deeper than %d", MAX_DEPTH);
        if (!neg) {
            st = parse_unary(ps, out);
            ps->depth--;
            return st;
        }
        if (!(node = new_node(ps, CL_NEG)))
            return ZVP_ENOMEM;
        *out = node;
        st = parse_unary(ps, &node->a);
        ps->depth--;
        return st;
    }
    return parse_primary(ps, out);
}

/* One left-associative level: ops "+-" over parse_product, or "*" "/" over parse_unary. */
static int parse_level(parser *ps, cl_node **out, int additive)
{
    int st = additive ? parse_level(ps, out, 0) : parse_unary(ps, out);
    while (!st) {
        char c;
        cl_node *node;
        skip_blanks(ps);
        c = *ps->p;
        if (additive ? (c != '+' && c != '-') : (c != '*' && c != '/'))
            break;
        if (++ps->operators > MAX_OPERATORS)
            return fail(ps, ZVP_EPARSE, "more than %d operators + - * / (at column %zu)",
                        MAX_OPERATORS, (size_t)(ps->p - ps->text) + 1);
        ps->p++;
        if (!(node = new_node(ps, c == '+' ? CL_ADD : c == '-' ? CL_SUB : c == '*' ? CL_MUL
                                                                           : CL_DIV)))
            return ZVP_ENOMEM;
        node->a = *out;
        *out = node;
        st = additive ? parse_level(ps, &node->b, 0) : parse_unary(ps, &node->b);
    }
    return st;
}

static int parse_expr(parser *ps, cl_node **out)
{
    int st;
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, ZVP_EPARSE, "expression nested deeper than %d", MAX_DEPTH);
    st = parse_level(ps, out, 1);
    ps->depth--;
    return st;
}

int cl_parse_expr(zvp_claims *set, const cl_where *w, const char *text, cl_node **out,
                  zvp_error *err)
{
    parser ps = {set, w, text, text, err, 0, 0};
    int st;
    *out = NULL;
    st = parse_expr(&ps, out);
    if (!st) {
        skip_blanks(&ps);
        if (*ps.p != '\0')
            st = unexpected(&ps, "an operator + - * / or the end of the expression");
    }
    if (st) {
        cl_node_free(*out);
        *out = NULL;
    }
    return st;
}
