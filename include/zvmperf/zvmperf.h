/*
 * zvmperf/zvmperf.h - umbrella header: includes every public zvmperf header.
 * zvmperf models the memory management of the IBM z/VM hypervisor with analytical
 * queueing models calibrated against IBM's published measurements.
 */
#ifndef ZVMPERF_ZVMPERF_H
#define ZVMPERF_ZVMPERF_H
#include "status.h"
#include "queue.h"
#include "model.h"
#include "modelfile.h"
#include "sweep.h"
#include "table.h"
#include "fit.h"
#include "fitfile.h"
#include "sim.h"
#include "interval.h"
#include "claims.h"
#endif /* ZVMPERF_ZVMPERF_H */
