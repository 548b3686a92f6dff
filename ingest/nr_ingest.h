/* nr_ingest: turns a run directory (or one log file) into a store.
 *
 * Finds the strace logs (by name or by content, plain/.zst/.gz), the hook
 * JSON lines and the manifest, parses them, replays every process's fd table,
 * offsets and cwd, and writes the tables of store/nr_schema.h. Bad lines are
 * counted by reason with examples (table diagnostics), never fatal. */
#ifndef NR_INGEST_H
#define NR_INGEST_H

#include <stdint.h>

#include "nr_error.h"

/* Bumped when the same logs give a different store (a new diagnostic, a
 * new flag, a changed rule) without a new store format: a cached store
 * (cli/runset.c, the fingerprint) of an older revision is ingested again.
 * 2 (session 38): synthetic pids of logs without one, phases.flags 2,
 * hook_mark_not_stored, a forking thread's phase for its child.
 * 3 (session 39): a hook record's bytes of -1 is no hook_bad_io_field;
 * -ff logs of -r stamps one after the other (order_inferred); stderr
 * mode's cut clone and word tails.
 * 4 (session 40): hook marks stored (table marks), no hook_mark_not_stored;
 * a cut log's last line that parses is counted (unterminated_last_line);
 * stderr mode's first process takes the pid its own set_tid_address/
 * getpid/gettid returned, a pid named by an attach notice is never taken
 * for it, and root_pid_unknown says when the log never names it (and a
 * log without prefixes takes that pid too); hook_pid_not_traced.
 * 5 (session 41): "/usr/bin/strace: Process N attached" is a notice; -ff
 * logs of clock stamps share one day count; an O_TMPFILE open without -y
 * makes <dir>/#tmpfile[#N]; mkdir/mkdirat/rmdir name directories; an
 * execve of a thread that is not the leader is the leader's call.
 * 6 (session 42): a call's line cut before its arguments end is the
 * call's unfinished half (cut_call_line: stderr mode, the program's
 * output in strace's lines); a line is lexed from a "[pid N] " after the
 * program's text.
 * Also: a regular file that mknod's mode or a stat's st_mode
 * says is a fifo, socket or device takes that kind (a fifo is a pipe);
 * several logs of -r stamps note relative_times_not_wall; a line that
 * ended (stamp + -T) after the previous stamp is no clock_backwards;
 * " * N bytes in buffer M" is a continuation; a call ending
 * "<detached ...>" is unfinished (never resumed), not truncated.
 * 7 (session 43): the execve of a thread taken by its leader no longer
 * reads the thread's call name from the leader's old text (a crash when
 * the leader had never had a call pending; a wrong count of pending
 * clones when its last one was a clone).
 * 8 (sessions 45, 46): ioctl FIOCLEX/FIONCLEX, unshare(CLONE_FILES,
 * CLONE_FS), a thread seen while several clones were pending re-attached
 * to its clone, splice counted at both ends, a pwrite on O_APPEND has no
 * offset, openat2's raw flags; a bare fd is closed only in a task that
 * printed annotations; -ff ties of coarse stamps counted; a never-ended
 * phase cut at its thread's end; a UTF-8 BOM skipped; a successful
 * <... execve resumed> with no start line is the leader's exec
 * (execve_start_not_printed); a call line without result is skipped
 * (call_without_result), and so is a -r or -tt stamp in a -ttt log
 * (foreign_timestamp); a hook path's \udcXX escapes are its bytes.
 * 9 (session 47): a call line with no " = " after its ')' is an
 * unknown_line, not a bad_result; a lone " <detached ...>" is a
 * continuation, not an unknown_line; a call line ending "<pid changed to
 * N ...>" is unfinished, not a cut_call_line; the lines of a summary
 * table with -U columns are summary_table, not unknown_line; an open
 * whose path is not a string (-e raw=all) makes an unknown:[#N] file of
 * kind unknown (not anon_inode), counted as paths_not_decoded; a
 * " (deleted)" inside an open's annotation stays in the name when the
 * open's path ends so; a root task no clone made, after its trace's
 * first, is counted as task_without_clone; in stderr mode a whole call
 * line without pid for a task with a call pending while two or more
 * tasks live is skipped as call_while_pending.
 * 10 (session 48): a never_resumed diagnostic's example is the call as
 * its line gave it ("read(4</d/a>,  <unfinished ...>"), not its name; a
 * "<...>" after a result that is no duration (nor "<unavailable>") is
 * noted as duration_unreadable.
 * 11 (session 49): msync is of op class sync (no file: it names a
 * mapping's address), as sync is; it was other.
 * 12 (session 50): the run folder's entries that are not read are noted
 * (file_not_read, meta files_not_read); they were counted in a field
 * nothing showed.
 * 13 (session 50): meta ingest_revision records this number.
 * 14 (session 51): a phase is inherited through processes, not pids (a
 * reused pid looped the walk), with no depth limit (it gave up 64 levels
 * up); the run's first event has its phase (it was unphased).
 * 15 (session 54): a blank phase or mark name in hook.jsonl is stored as
 * "(unnamed)" and noted (hook_empty_name); an end of a blank name closes
 * a phase of any blank name.
 * 16 (session 54): a -T duration above 2^62 ns is unreadable
 * (duration_unreadable); it wrapped, and a negative one was lost unnoted.
 * A hidden file of a run folder named like an input (".strace.log.123")
 * is noted (file_not_read); it was passed over without a word.
 * 17 (session 55): a hidden file of a run folder that is a log by its
 * first lines (".trace.1234") is noted (file_not_read); it was passed over
 * without a word.
 * 18 (session 55): a file found by its first lines whose lines end in a CR
 * alone is refused as a log so named is (an error naming it); it was
 * noted as no log (file_not_read).
 * 19 (session 56): a log's line ends are judged by its first 4 KiB of
 * text, by the run's sniff and the reader alike (nr_line_ends): a zstd or
 * gzip log whose first decoded text had an LF after 4 KiB of CR-cut lines
 * was read, and one found by its lines with an LF within 8 KiB taken as an
 * LF log. A call line whose text after the result holds a control byte
 * (lines run together at a CR) is a bad_result, skipped and counted; it
 * was the first call alone, the rest lost without a word.
 * 20 (session 57): a call line with text after its result that the lexer
 * does not know ("= 0 junk") is noted (result_tail_unread); the rest of
 * the line was ignored without a word.
 * 21 (session 58): such a line's -T duration, when its last "<...>" is
 * one, is read (it was lost with the rest of the line).
 * 22 (session 61): a file a successful stat shows to be a directory
 * (S_IFDIR) is a directory; it stayed regular, a job file of 0 bytes.
 * 23 (session 61): a successful mmap of an fd carries the length mapped as
 * its event's bytes (op class other); it carried 0.
 * 24 (session 62): the hook's wait records (niorep_hook.batches) fill the
 * table waits; they were unknown_event.
 * 25 (session 63): a wait's "first" (the first item of a pass, its wait
 * including the loader's start) fills the waits' column first.
 * 26 (session 64): a task's "+++ exited with N +++" or "+++ killed by SIG
 * +++" line's stamp fills the processes' column end_ts_ns (how the
 * processes ended, docs/definitions.md); it was read for the code or the
 * signal alone. A phase that never ended ends there, at its thread's
 * death, no longer at its last event. */
#define NR_INGEST_REVISION 26

typedef struct nr_ingest_opts {
    const char *start_cwd;  /* directory the traced command started in, if known; overrides the manifest */
    int jobs;               /* threads reading and lexing the logs, the caller's included; 0 = all
                               cores. The store is the same for any value. */
    /* Called on the caller's thread every few MB of input and once at the end
       (done == total): input bytes read so far (compressed bytes of compressed
       logs) and in all. NULL = none. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
} nr_ingest_opts;

typedef struct nr_ingest_stats {
    uint64_t store_dev, store_ino; /* the store written (nr_store_writer_file_id); 0 when unknown */
    uint64_t log_files;
    uint64_t bytes_in;        /* uncompressed log bytes */
    uint64_t lines_read;
    uint64_t lines_parsed;    /* syscall, unfinished, resumed, signal, exit lines */
    uint64_t lines_skipped;   /* everything else that was not blank */
    uint64_t events;          /* rows of table events */
    uint64_t files;
    uint64_t processes;
    uint64_t unfinished_never_resumed;
    uint64_t hook_diagnosed;  /* diagnostics of hook.jsonl records (hook_* reasons; one per record and reason) */
    uint64_t files_not_read;  /* entries of the run folder not read (notes file_not_read, meta files_not_read) */
    uint64_t chunks_stitched; /* chunks of a log modelled ahead by a worker and stitched on */
    uint64_t chunks_refused;  /* ... whose speculation did not hold: modelled again in order */
    uint64_t blocks_made;     /* big blocks (path table, file records) a worker faulted in for the pass (nr_reserve) */
    uint64_t blocks_taken;    /* ... of which the pass took */
} nr_ingest_stats;

/* Ingests input (a run directory or a single log file) into the store at
 * out_path (atomically). stats may be NULL. Returns 0 or a negative code with
 * err naming the file (and line) at fault. */
int nr_ingest_run(const char *input, const char *out_path, const nr_ingest_opts *opts,
                  nr_ingest_stats *stats, nr_error *err);

/* Whether folder dir holds an strace log, as nr_ingest_run would find it
 * (by name, else by its first lines): 1, 0 (err then says why), or a
 * negative code when dir cannot be read. */
int nr_ingest_finds_log(const char *dir, nr_error *err);

/* The files nr_ingest_run reads of input, as new paths in *paths (*n of
 * them, sorted by name; free each and the array): a run directory's logs
 * (by name, else by their first lines) and, unless logs_only, hook.jsonl,
 * manifest.json and the binary files named like logs (skipped with a
 * note); or input itself when it is one log. When not_read is not NULL,
 * *not_read gets the folder's other entries (a report written there,
 * notes, a store, a sub-folder; hidden ones apart), which the ingest notes
 * as file_not_read by their name and the reason that follows it, as new
 * strings "NAME\tREASON" in name order (*n_not_read of them): their
 * sizes and times change nothing the ingest writes. A folder without a
 * log is NR_E_INPUT, as for nr_ingest_run. */
int nr_ingest_input_files(const char *input, int logs_only, char ***paths, size_t *n, char ***not_read,
                          size_t *n_not_read, nr_error *err);

/* Tests and fuzzing: with on, the path look-ahead (a cache hint that runs
 * once a log names 32768 files) runs from the first chunk, so that small
 * inputs reach it; 0 restores the threshold. Set before an ingest starts. */
void nr__ingest_path_ahead_always(int on);

/* Tests: with on, each chunk of a single -ttt log after the first event is
 * fed to a speculative model and stitched onto the real one (falling back
 * to the real model when the speculation does not hold), as the workers do
 * at jobs > 1 (docs/split.md): the store must not change. */
void nr__ingest_speculate(int on);

#endif
