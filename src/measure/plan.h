/*
 * plan.h - the planner of `speed` and `bench`: every backend x
 * implementation x direction x key size x request size, in output order,
 * with the points that cannot run marked skipped and why.
 */
#ifndef CB_PLAN_H
#define CB_PLAN_H

#include <stddef.h>

#include "measure/speed.h"

/* The points to measure into *out; notes: implementations unavailable.
 * Returns the number of points (0: nothing available). */
size_t plan_make(const struct speed_opts *o, struct plan **out,
                 char ***notes, size_t *nnotes);
void plan_free(struct plan *p, size_t n);

/* The sample count and length of each point (struct plan's samples and
 * sample_sec) the options give. */
unsigned plan_samples(const struct speed_opts *o);
double plan_sample_sec(const struct speed_opts *o);

/* Same implementation, direction, key and algorithm: one series. */
int plan_same_series(const struct plan *a, const struct plan *b);

/* "encrypt", "decrypt" or "digest". */
const char *plan_dir_name(int dir);

#endif
