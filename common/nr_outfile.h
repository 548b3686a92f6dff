/* nr_outfile: an output written atomically: a temporary file beside the
 * target, renamed over it on commit, removed on abort. Earlier outputs stay
 * untouched until the new one is complete. */
#ifndef NR_OUTFILE_H
#define NR_OUTFILE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"

typedef struct nr_outfile {
    int fd;             /* -1 when closed */
    char *target;       /* owned */
    char *tmp_path;     /* owned */
    uint64_t offset;    /* bytes written so far */
    pthread_t syncer;   /* nr_outfile_sync_start's thread, while sync_state is 1 */
    int sync_state;     /* 0: none yet, 1: syncer running, 2: none to join (joined, or it could not start) */
    int replaced_mode;  /* the permissions of the file the commit replaces, which the new one keeps;
                           -1: a new file (0666 under the umask) */
} nr_outfile;

/* Creates the temporary file for target (or, when target is a symbolic
 * link, for the file it names). Returns 0, NR_E_USAGE when target is
 * there but no regular file (a folder, a device: the commit would replace
 * it), or NR_E_IO, with the path in err. */
int nr_outfile_open(nr_outfile *f, const char *target, nr_error *err);
/* NR_E_USAGE when target already exists and is one of the n inputs (the
 * same file, whatever the path), else 0: the commit would replace the input. */
int nr_outfile_check_inputs(const char *target, const char *const *inputs, size_t n, nr_error *err);
/* Whether target can be written, before the work that makes it: creates
 * its temporary file and removes it again (nr_outfile_open's errors). A
 * missing or unwritable folder was found only after a whole build's work
 * (review 47). */
int nr_outfile_probe(const char *target, nr_error *err);
/* Writes all n bytes (retrying short writes). */
int nr_outfile_write(nr_outfile *f, const void *p, size_t n, nr_error *err);
/* Starts making the bytes written so far durable (fdatasync) on a thread
 * of its own, which waits for the disk rather than computing: a head start
 * for the commit's fsync, while the caller writes on. The commit and the
 * abort wait for it. Once per file (later calls do nothing); a hint:
 * errors, and a thread that cannot start, are left to the commit's fsync,
 * which meets them too. */
void nr_outfile_sync_start(nr_outfile *f);
/* fsyncs, closes and renames the temporary file over the target. On failure
 * the temporary file is removed (the target stays as it was) and f is closed:
 * a later nr_outfile_abort does nothing. */
int nr_outfile_commit(nr_outfile *f, nr_error *err);
/* nr_outfile_commit without the fsync: the rename is atomic for readers,
 * but after a crash the target may hold fewer bytes than were written. For
 * a cache whose reader checks what it reads (cli/figure_cache.c), where a
 * thousand fsyncs would cost more than the bytes are worth. */
int nr_outfile_commit_unsynced(nr_outfile *f, nr_error *err);
/* Closes and removes the temporary file if still open. Accepts a closed or
 * zeroed f (but not a copy of f: the sync thread, if any, is joined here). */
void nr_outfile_abort(nr_outfile *f);

/* Whether name is that of a temporary file of an output being written:
 * "<target>.tmp.XXXXXX". */
int nr_outfile_is_tmp_name(const char *name);

/* Removes the temporary files ("*.tmp.XXXXXX") in dir that a process
 * killed while writing them left (SIGKILL, a crash, a power cut: nothing
 * ran to remove them) and returns their number. A writer holds an flock on
 * its temporary file while it is open, and the kernel drops the lock with
 * the process, so an unlocked one is an orphan; one written in the last
 * min_age_s seconds is left (the instant between a writer's mkostemp and
 * its flock, and between its close and its rename). For niorep's own
 * cache folders, which no user looks into. */
size_t nr_outfile_sweep(const char *dir, long min_age_s);

/* mkdir -p for an output folder: creates path and every missing folder
 * above it. Returns 0, NR_E_USAGE for an empty path, or NR_E_IO naming the
 * folder that could not be made (or path, when it exists but is no folder). */
int nr_make_dirs(const char *path, nr_error *err);

/* Removes every temporary file still open in this process; async-signal-safe,
 * for SIGINT/SIGTERM handlers. */
void nr_outfile_abort_all_from_signal(void);

#endif
