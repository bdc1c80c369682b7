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
 * Pool the samples of `more` (the same point measured by another process)
 * into r: the median, CI, MAD and spread are taken again over both, the
 * times and bytes add up.  Nothing happens unless both are measured.
 */
void speed_result_pool(struct cb_result *r, const struct cb_result *more);

#endif
