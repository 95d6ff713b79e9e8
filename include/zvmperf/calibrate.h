/*
 * zvmperf/calibrate.h - compatibility header: measurement tables (table.h), the in-memory
 * fit, its engine and reports (fit.h) and fit files (fitfile.h). New code includes those.
 */
#ifndef ZVMPERF_CALIBRATE_H
#define ZVMPERF_CALIBRATE_H
#include "table.h"
#include "fit.h"
#include "fitfile.h"
#endif /* ZVMPERF_CALIBRATE_H */
