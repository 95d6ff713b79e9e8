/*
 * src/mpi/mpi_sweep.h - the sweep on MPI (zvmperf-mpi): every rank of a communicator
 * evaluates blocks of the grid and all ranks write one file with parallel HDF5. Private to
 * the zvmperf-mpi program (src/mpi/README.md); not part of the library.
 */
#ifndef ZVMPERF_MPI_SWEEP_H
#define ZVMPERF_MPI_SWEEP_H

#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include "zvmperf/zvmperf.h"

/* Options of an MPI sweep: the serial sweep's options, plus what only the driver knows. */
typedef struct zvp_mpi_options {
    zvp_sweep_options sweep;           /* threads (per rank), block_points, command, resume */
    int progress;                      /* rank 0 shows the progress line on stderr */
    volatile sig_atomic_t *stop;       /* nonzero (set by a signal handler): stop after the
                                          current round; may be NULL */
} zvp_mpi_options;

/**
 * zvp_mpi_sweep_run - the sweep of zvp_sweep_run on every rank of comm (a collective call:
 * every rank passes the same model file, axes, path and options). Ranks take blocks from a
 * shared counter (MPI_Fetch_and_op), evaluate them with zvp_eval_grid on their OpenMP
 * threads, and write them in rounds of collective parallel-HDF5 writes into path's partial
 * file, renamed to path when complete. Datasets are bit-identical to zvp_sweep_run's.
 * @return the same status and message on every rank: ZVP_SUCCESS; ZVP_ECANCELED (stopped
 *         by *opt->stop after a round: the partial file is valid and resumable); the
 *         statuses of zvp_sweep_run. summary (may be NULL) holds the global counts.
 */
int zvp_mpi_sweep_run(MPI_Comm comm, const zvp_model_file *mf, const zvp_axis *axes,
                      size_t n_axes, const char *path, const zvp_mpi_options *opt,
                      zvp_sweep_summary *summary, zvp_error *err);

#endif
