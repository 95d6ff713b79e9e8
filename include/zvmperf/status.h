/*
 * zvmperf/status.h - status codes, error records, library initialisation and version.
 *
 * Every fallible zvmperf function returns an int status (ZVP_SUCCESS = 0) and takes a
 * caller-owned `zvp_error *err` as its last argument. When err is not NULL and the call
 * fails, err->status and err->message are filled; the message names the parameter, its
 * value and the allowed range. err may be NULL. There is no global error state, so the
 * library is safe to call from OpenMP threads as long as each thread has its own zvp_error.
 */
#ifndef ZVMPERF_STATUS_H
#define ZVMPERF_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Version ------------------------------------------------------------------------ */
#define ZVP_VERSION_MAJOR 0
#define ZVP_VERSION_MINOR 1
#define ZVP_VERSION_PATCH 0
#define ZVP_VERSION_STRING "0.1.0"
/* MAJOR*10000 + MINOR*100 + PATCH, as zvp_version_number() returns. */
#define ZVP_VERSION_NUMBER (ZVP_VERSION_MAJOR * 10000 + ZVP_VERSION_MINOR * 100 + ZVP_VERSION_PATCH)

/* ---- Status codes ------------------------------------------------------------------- */
enum {
    ZVP_SUCCESS = 0,   /* success */
    ZVP_EINVAL = 1,    /* invalid argument: out of range, NaN, negative, NULL */
    ZVP_EBADLEN = 2,   /* array length mismatch */
    ZVP_EUNSTABLE = 3, /* no steady state (utilization >= 1) */
    ZVP_ENOMEM = 4,    /* out of memory */
    ZVP_EMAXITER = 5,  /* iteration limit reached without convergence */
    ZVP_EIO = 6,       /* file could not be opened, read or written (includes HDF5 errors) */
    ZVP_ENOTFOUND = 7, /* unknown model, parameter, output or column name */
    ZVP_EPARSE = 8,    /* malformed INI or CSV input */
    ZVP_EFIT = 9,      /* calibration failed (singular Jacobian, no usable start) */
    ZVP_EINTERNAL = 10, /* an internal consistency check failed (a bug in zvmperf; report it) */
    ZVP_ECANCELED = 11, /* canceled by the caller (a progress callback asked to stop) */
    ZVP_ENUM_STATUS = 12
};

/* Capacity of zvp_error.message, in bytes including the terminating NUL. */
#define ZVP_ERRMSG_MAX 512

/* Caller-owned error record; fill-only, never allocated by the library. */
typedef struct zvp_error {
    int status;                     /* last status set, ZVP_SUCCESS when none */
    char message[ZVP_ERRMSG_MAX];   /* human-readable message, NUL-terminated */
} zvp_error;

/**
 * zvp_strerror - static text for a status code.
 * @param[in] status  a ZVP_* code; unknown codes give "unknown status".
 * @return a static NUL-terminated string (never NULL, never freed).
 * Thread safety: pure.
 */
const char *zvp_strerror(int status);

/**
 * zvp_error_clear - reset an error record to ZVP_SUCCESS with an empty message.
 * @param[out] err  record to reset; NULL is a no-op.
 */
void zvp_error_clear(zvp_error *err);

/**
 * zvp_init - one-time process initialisation: switches off GSL's aborting error handler
 * (GSL keeps it in one static variable, so it must be set before any thread starts).
 * Call once from the main thread before using the library (the CLI and the Python
 * package do). Idempotent. Returns ZVP_SUCCESS.
 */
int zvp_init(void);

/** zvp_version - the library's version string, e.g. "0.1.0" (static). */
const char *zvp_version(void);

/** zvp_version_number - MAJOR*10000 + MINOR*100 + PATCH of the loaded library, to be
 *  compared with ZVP_VERSION_NUMBER from the header the caller was built with. */
int zvp_version_number(void);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_STATUS_H */
