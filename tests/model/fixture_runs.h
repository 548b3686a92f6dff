/* The hand-built runs shared by the unit tests and the CLI test. */
#ifndef TEST_FIXTURE_RUNS_H
#define TEST_FIXTURE_RUNS_H

/* Run A: four phases (one name twice), a main process, two workers, one
 * other process, a pipe; every expected number in fixture_runs.c. */
void build_run_a(const char *path);

#endif
