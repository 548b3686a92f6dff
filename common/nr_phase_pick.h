/* nr_phase_pick: which phases figure 1 draws each in a colour of its own
 * when a run has more phase names than colours, and which it folds into
 * one grey "other N phases" (docs/figures.md, "Many phases"). One rule for
 * render/ (figures 1, 4 and 5 fold by it) and model/ (the latency group of
 * the folded phases' reads, exact as every group's), so that the two can
 * never disagree; both call it on the same weights
 * (nr_model_phase_job_bytes, nr_model_phase_job_io_time_s). */
#ifndef NR_PHASE_PICK_H
#define NR_PHASE_PICK_H

#include <stddef.h>
#include <stdint.h>

/* The most phases drawn each in a colour of its own; with more, the
 * NR_PHASE_PICK_KEPT of the largest weight are kept and the rest fold. */
#define NR_PHASE_PICK_MAX 8
#define NR_PHASE_PICK_KEPT (NR_PHASE_PICK_MAX - 1)

/* Where each of n_phases phases goes when they fold: slot[j] is phase j's
 * place among the kept (numbered in phase order), or NR_PHASE_PICK_KEPT
 * (folded). The kept are the NR_PHASE_PICK_KEPT of the largest weight,
 * phase j's weight being its share of each run's bytes plus its share of
 * each run's I/O time, summed over the n_runs runs (bytes and io_time_s
 * row-major [n_runs][n_phases], borrowed); ties go to the earlier phase;
 * a value that is not finite and positive weighs nothing. slot: n_phases
 * values (caller's). Returns 0 or NR_E_NOMEM. */
int nr_phase_pick_slots(size_t n_runs, size_t n_phases, const double *bytes, const double *io_time_s, size_t *slot);

/* The kept phases' indices, ascending, into kept and their count into
 * *n_kept: NR_PHASE_PICK_KEPT, or 0 when there are at most
 * NR_PHASE_PICK_MAX phases (none folds). Returns 0 or NR_E_NOMEM (*n_kept 0). */
int nr_phase_pick_kept(size_t n_runs, size_t n_phases, const double *bytes, const double *io_time_s,
                       size_t kept[NR_PHASE_PICK_KEPT], size_t *n_kept);

/* The k phases of the largest weight by the same rule (the NR_PHASE_PICK_KEPT
 * of nr_phase_pick_slots are the first of them): top[j] is 1 for those, 0
 * for the others (n_phases values, the caller's). The report's per-phase
 * tables list these (nr_model_phase_listed). Returns 0 or NR_E_NOMEM. */
int nr_phase_pick_top(size_t n_runs, size_t n_phases, const double *bytes, const double *io_time_s, size_t k,
                      uint8_t *top);

#endif
