/* file_role: whether a regular file is the job's own (data, checkpoints,
 * logs) or its runtime (Python modules, shared libraries, system files),
 * from the path (and the totals of one rule). Per-file statistics (concentration, power law, top
 * files, the small-files finding) describe the job's files; the runtime's
 * are counted apart (docs/definitions.md, "Job files and runtime files"). */
#ifndef NR_FILE_ROLE_H
#define NR_FILE_ROLE_H

#include <stdint.h>

enum nr_file_role { NR_FILE_JOB, NR_FILE_RUNTIME };

/* The role of the file at path (absolute or relative, as the store holds
 * it); NULL is a job file. */
enum nr_file_role nr_file_role_of(const char *path);

/* What a file did, from its row of table files. */
typedef struct nr_file_totals {
    int64_t bytes_read, bytes_written, read_calls, write_calls, open_calls;
} nr_file_totals;

/* nr_file_role_of(path), and runtime too for the file Python's tempfile
 * writes to try a temporary folder (a name of 8 characters of
 * [a-z0-9_], opened once, 4 bytes written in one call, nothing read),
 * which no path tells from the job's. */
enum nr_file_role nr_file_role_of_file(const char *path, const nr_file_totals *totals);

#endif
