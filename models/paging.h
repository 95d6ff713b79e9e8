/* models/paging.h - private helper of the paging-DASD model (models/paging.c), for other
 * models that need the page-out ceiling of a paging DASD configuration (e.g. sweetspot's CM4
 * phase). Not installed; not part of the public API. */
#ifndef ZVP_MODELS_PAGING_H
#define ZVP_MODELS_PAGING_H

/**
 * zvp_paging_pageout_max_per_s - page-out capacity of `volumes` paging devices, each a
 * server doing block writes of `pages_per_io` pages, with no page-in traffic:
 *     S_io(b) = t_ov + b t_pg,    X_max = c b / S_io(b)   (pages/s)
 * @param volumes          c, servers (volumes, or exposures with HyperPAV aliases), > 0.
 * @param pages_per_io     b, mean pages written per I/O, > 0.
 * @param io_overhead_s    t_ov, time per I/O independent of its size (start, protocol,
 *                         seek/latency), s, >= 0.
 * @param page_transfer_s  t_pg, time per 4 KiB page transferred, s, >= 0.
 * @return X_max in pages/s; NaN if an argument is NaN/infinite/out of range or
 *         t_ov + b t_pg = 0 (callers validate their parameters first).
 * Source: models/README.md, paging (block paging: S_io and the page-out ceiling).
 * Pure, thread-safe.
 */
double zvp_paging_pageout_max_per_s(double volumes, double pages_per_io, double io_overhead_s,
                                    double page_transfer_s);

#endif
