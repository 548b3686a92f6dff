/* file_role: whether a regular file is the job's own (data, checkpoints,
 * logs) or its runtime (Python modules, shared libraries, system files),
 * from the path alone. Per-file statistics (concentration, power law, top
 * files, the small-files finding) describe the job's files; the runtime's
 * are counted apart (docs/definitions.md, "Job files and runtime files"). */
#ifndef NR_FILE_ROLE_H
#define NR_FILE_ROLE_H

enum nr_file_role { NR_FILE_JOB, NR_FILE_RUNTIME };

/* The role of the file at path (absolute or relative, as the store holds
 * it); NULL is a job file. */
enum nr_file_role nr_file_role_of(const char *path);

#endif
