/*
 * tests/bench/cycles.h - the clock of the measuring helpers under
 * tests/bench (lanes.c, gcmstep.c): cycles counted against the native
 * backend's dependent-add loop, as sysinfo's probes count them
 * (native_limits.c), so a figure needs no clock reading and no hardware
 * counters.  x86-64 only, like the routines it times.
 */
#ifndef CB_BENCH_CYCLES_H
#define CB_BENCH_CYCLES_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "native_asm.h"

#if defined(__x86_64__)
static double bench_secs(void (*f)(uint64_t), uint64_t n)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	f(n);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	return (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* cycles of f(n): the median of 15 pairs against 4 x 250000 adds */
static double bench_cycles(void (*f)(uint64_t), uint64_t n)
{
	double r[15];

	for (int i = 0; i < 15; i++)
		r[i] = bench_secs(f, n) /
		       bench_secs(cb_native_probe_adds, 250000) * 1e6;
	qsort(r, 15, sizeof *r, bench_cmp);
	return r[7];
}
#endif

#endif
