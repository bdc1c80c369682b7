/*
 * measure.h - gate and time the points of a plan; plan, measure and
 * fill the cycles of a whole `speed` or `bench` run.
 */
#ifndef CB_MEASURE_H
#define CB_MEASURE_H

#include <stddef.h>

#include "output/result.h"
#include "measure/speed.h"

/* Gate and time every point of the plan; returns how many failed. */
size_t speed_measure(const struct speed_opts *o, const struct plan *p,
               size_t n, struct cb_result *res);

/*
 * Plan, measure and return the results.  Returns CB_EXIT_SKIP when there
 * is nothing to run (message printed), else CB_EXIT_OK with *nfail set.
 */
int speed_run(const struct speed_opts *o, struct cb_result **res,
              size_t *nres, size_t *nfail);

void speed_free_results(struct cb_result *res, size_t n);

/*
 * The same in two steps, for a caller that sizes its passes by their
 * points before it runs them (bench): the plan made once, silently
 * (runnable: the points not skipped); then run, after the messages
 * speed_run gives (the plan's notes, once), with the samples o asks for
 * by then.  speed_plan_free() after.
 */
struct speed_plan {
	struct plan *p;
	size_t n, runnable;
	char **notes;
	size_t nnotes;
};
void speed_plan_make(const struct speed_opts *o, struct speed_plan *sp);
int speed_plan_run(const struct speed_opts *o, struct speed_plan *sp,
                   struct cb_result **res, size_t *nres, size_t *nfail);
void speed_plan_free(struct speed_plan *sp);

/*
 * Pool the samples of `more` (the same point measured by another process)
 * into r: the median, CI, MAD and spread are taken again over both, the
 * times and bytes add up.  Nothing happens unless both are measured.
 */
void speed_result_pool(struct cb_result *r, const struct cb_result *more);

#endif
