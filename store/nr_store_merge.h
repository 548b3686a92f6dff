/* nr_store_merge: one store of a run from the stores of its nodes.
 *
 * Each node of a multi-node job is traced with the same run label and its own
 * node label (`niorep trace --label run=R --label node=N`), ingested where its
 * logs lie, and the node stores are merged into one store that is what a
 * single ingest of every node's logs would have written, so that every model
 * aggregate of the merged store is exact (docs/multi-node.md, "The merge").
 *
 * The rules, in short:
 * - parts are ordered by node label; part k's pids and tids become
 *   k * NR_MERGE_PID_SPAN + pid (Linux pids stay below 2^22 < 10^7), so pid
 *   1234 of the second node reads 10001234;
 * - events (and pyio) are merged by start time, ties by part order;
 * - files: an absolute path of a regular file, directory or file of unknown
 *   kind is one file on every node (a shared file system: datasets and
 *   checkpoints); every other identity (pipes, sockets, anon inodes, devices,
 *   /proc, the hook's output, relative paths) is node-local and named
 *   "<node>:<identity>". With files_by_node every file is node-local.
 *   A shared file's totals are the sums over the parts, its first/last
 *   times the min/max; file ids are dense in order of first use in the
 *   merged events;
 * - phases are numbered again by (begin, pid, tid); events, pyio and parent
 *   ids follow;
 * - diagnostics add their counts per reason; example files are prefixed
 *   with "<node>/";
 * - meta: counters add, time extents take min/max, log.N.* are renumbered
 *   with "<node>/" names, keys equal in every part stay, the others move to
 *   part.K.<key>; part.K.node, part.K.pid_base and merged_parts describe
 *   the parts. */
#ifndef NR_STORE_MERGE_H
#define NR_STORE_MERGE_H

#include <stddef.h>

#include "nr_error.h"
#include "nr_store.h"

#define NR_MERGE_PID_SPAN 10000000

/* Bumped when the same node stores merge into another store: a cached
 * merged store (niorep build) of an older revision is merged again.
 * 2 (session 46): the mount list is the union of the parts' entries.
 * 3 (session 50): meta files_not_read, the sum of the parts' when every
 * part has one. */
#define NR_MERGE_REVISION 3

typedef struct nr_merge_opts {
    int files_by_node;   /* 1: every file is node-local ("<node>:<path>"), also absolute paths */
    int level;           /* zstd level of the output; 0 = the writer's default */
    uint64_t *store_dev, *store_ino; /* when not NULL: set to the output's device and inode
                                        (nr_store_writer_file_id), for a cache that must know
                                        its store from one another writer renamed over it */
    /* when not NULL: called now and then with the rows of tables events,
       pyio, marks and waits merged so far and the parts' total of them (from their
       footers), and once with done == total when they are all merged */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
} nr_merge_opts;

/* Merges the n >= 1 stores at paths parts[] (borrowed) into a new store at
 * out_path (written atomically). Every part must carry meta
 * manifest.labels.run (the same in all) and manifest.labels.node (distinct),
 * and the same time_base. opts may be NULL. Returns 0, NR_E_INPUT naming the
 * offending part(s), NR_E_LIMIT for a pid beyond NR_MERGE_PID_SPAN,
 * NR_E_FORMAT for a damaged part, or what opening and writing return. */
int nr_store_merge(const char *const *parts, size_t n, const char *out_path,
                   const nr_merge_opts *opts, nr_error *err);

/* Sets *value to a new copy (free() it) of meta key `key` of s, or to NULL
 * when the store has no such key. */
int nr_store_meta_value(const nr_store *s, const char *key, char **value, nr_error *err);

#endif
