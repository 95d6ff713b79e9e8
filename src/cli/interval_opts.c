/*
 * src/cli/interval_opts.c - the interval options shared by eval and sweep: --interval LEVEL,
 * --method delta|mc, --samples N, --seed S, --confidence.
 */
#include <math.h>
#include <string.h>
#include "cli.h"

int cli_interval_options(const cli_ctx *c, const char *level, const char *method,
                         const char *samples, const char *seed, int confidence,
                         zvp_interval_options *o, int *on)
{
    double v;
    *o = zvp_interval_default_options();
    *on = level != NULL;
    if (!*on) {
        const char *given = method ? "method" : samples ? "samples" : seed ? "seed"
                            : confidence ? "confidence" : NULL;
        return given ? cli_error(c, ZVP_EINVAL, "--%s needs --interval LEVEL", given) : 0;
    }
    if (cli_number(level, &v) || !(v > 0.0 && v < 1.0))
        return cli_error(c, ZVP_EINVAL, "--interval %s: the level is a number in (0, 1), e.g. 0.9",
                         level);
    o->level = v;
    if (method) {
        if (strcmp(method, "mc") && strcmp(method, "delta"))
            return cli_error(c, ZVP_EINVAL, "--method %s: expected delta or mc", method);
        o->method = strcmp(method, "mc") == 0 ? ZVP_INTERVAL_MC : ZVP_INTERVAL_DELTA;
    }
    if ((samples || seed) && o->method != ZVP_INTERVAL_MC)
        return cli_error(c, ZVP_EINVAL, "--%s is for --method mc (the delta method draws nothing)",
                         samples ? "samples" : "seed");
    if (samples) {
        if (cli_number(samples, &v) || v != floor(v) || v < 2 || v > 1e8)
            return cli_error(c, ZVP_EINVAL, "--samples %s: a whole number in [2, 100000000]",
                             samples);
        o->samples = (size_t)v;
    }
    if (seed) {
        if (cli_number(seed, &v) || v != floor(v) || v < 0 || v > 9007199254740992.0)
            return cli_error(c, ZVP_EINVAL, "--seed %s: a whole number in [0, 2^53]", seed);
        o->seed = (uint64_t)v;
    }
    o->prediction = !confidence;
    return 0;
}
