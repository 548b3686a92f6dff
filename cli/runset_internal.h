/* Internals of runset shared by runset.c (inputs, cache, load) and
 * runset_nodes.c (the node stores of one run joined into one run). */
#ifndef RUNSET_INTERNAL_H
#define RUNSET_INTERNAL_H

#include <sys/stat.h>

#include "runset.h"

/* New strings, NULL when out of memory. */
char *nr__rs_join(const char *dir, const char *name);
char *nr__rs_base_name(const char *path);
char *nr__rs_dir_name(const char *path);
/* path followed by suffix (a store's companion files: ".inputs", ".fits-..."). */
char *nr__rs_path_with(const char *path, const char *suffix);
/* The whole file as a new string, NULL when unreadable. */
char *nr__rs_read_small_file(const char *path);
/* Writes text to path atomically. */
int nr__rs_write_text_file(const char *path, const char *text, nr_error *err);
/* A fingerprint's line of one input file: "name\tsize\tmtime\tctime\n"
 * (times with ns; the ctime catches an edit whose mtime was put back).
 * snprintf's result. */
int nr__rs_stat_line(char *out, size_t cap, const char *name, const struct stat *st);
/* Frees what run r owns (model, store; a temporary store file is removed)
 * and zeroes it: a dropped run has no name. */
void nr__rs_drop_run(nr_run *r);
/* 0 when the runs' labels, read from table meta of s before any model
 * (runset_nodes.c), read here (checksums included), else the error: a
 * cached store's check before it is trusted. */
int nr__rs_meta_readable(const nr_store *s, nr_error *err);
/* Removes the temporary files in cache folder dir that a niorep killed
 * while writing them left (nr_outfile_sweep), with a line on stderr: a
 * build killed in its ingest (SIGKILL at a job's time limit, the OOM
 * killer) left a partial store as big as the run's in a folder no one
 * looks into; until session 48 it stayed there. */
void nr__rs_sweep_dir(const char *dir);
/* Removes from cache folder dir, the one of folder near, the stores of
 * near's run folders that are gone (removed, renamed) and their companion
 * files, last written more than 10 minutes ago, with a line on stderr
 * naming them; nothing when near cannot be listed (runset_prune.c). */
void nr__rs_prune_dir(const char *dir, const char *near);
/* Removes from dir/merged, the merged stores of cache folder dir (the one
 * of folder near), those whose fingerprint names node stores of which
 * none is left (in dir: the stores of ingested run folders; in near: node
 * stores given), and their companion files, last written more than 10
 * minutes ago, with a line on stderr naming them; a store without a
 * fingerprint stays (runset_prune.c). */
void nr__rs_prune_merged(const char *dir, const char *near);
/* The file of a folder of the user's cache that names the traces folder
 * it belongs to (its real path and a newline), so that the folder can be
 * known as gone once that traces folder is. */
#define NR_CACHE_FOLDER_NOTE "traces-folder"
/* Writes that note into user cache folder dir for traces folder real
 * (a real path) unless it holds it already. 0 or a negative code. */
int nr__rs_note_traces_folder(const char *dir, const char *real);
/* Removes from base, the user's cache ($NIOREP_CACHE_DIR, ...), the
 * folders of traces folders that are gone (their note names a path that
 * is not there, in a folder that is): their stores, companions, merged/
 * and temporary files (no process holding them), last written more than 10
 * minutes ago, then the folder when nothing else is left in it, with a
 * line on stderr naming the traces folders. A folder without a note (made
 * before session 50), or holding other files, stays. */
void nr__rs_prune_user_cache(const char *base);
/* The cache folder for the stores of inputs in folder near (new string):
 * near/.niorep, made when missing; when it cannot be written (a read-only
 * traces folder), or when $NIOREP_CACHE_DIR is set, a folder of near's own
 * in the user's cache ($NIOREP_CACHE_DIR, else $XDG_CACHE_HOME/niorep,
 * else ~/.cache/niorep); NULL when neither can be made (the caller uses
 * the temporary folder). *made (made may be NULL): 1 when near/.niorep was
 * made here. */
char *nr__rs_cache_dir(const char *near, int *made);
/* After a store's write into cache folder dir failed (NR_E_IO): 1 when
 * dir is gone and was made again, for one more try. Another build that
 * made the folder and failed before its first store removes it, empty, at
 * its end (review 47), while this one was about to write there: until
 * session 48 this build failed too (review 48). 0 for a temporary store. */
int nr__rs_cache_dir_gone(const char *dir, int temporary);
/* A name in the cache (a run folder's, a label's, a traces folder's)
 * past NR_CACHE_NAME_MAX bytes is cut there, in place, and ends with 16
 * hex digits of the hash of key: a file name has at most 255 bytes, and
 * the cache's companions add their suffixes (".nio.fits-200-1"); until
 * session 48 a run folder of 230 bytes or more could not be built (review
 * 48). */
#define NR_CACHE_NAME_MAX 160
void nr__rs_cut_name(char *name, const char *key);
/* The last line of a cache's fingerprint: the store it stands for, by
 * device and inode ("store D I\n"), as its writer made it. A store that
 * another build renamed over it (two builds of one folder at once, the
 * other one of an older log and killed before its own fingerprint) is
 * another file, and is not trusted: until session 48 it was, for good
 * (review 48). */
void nr__rs_store_line(char *out, size_t cap, uint64_t dev, uint64_t ino);
/* Whether old, a cache's fingerprint file (NULL when none), is fp
 * followed by the store line of the file at store_path now; then id (may
 * be NULL) gets that file's device and inode. */
int nr__rs_fingerprint_fresh(const char *old, const char *fp, const char *store_path, uint64_t id[2]);
/* Creates rs->tmpdir unless it exists. */
int nr__rs_tmpdir(nr_runset *rs, nr_error *err);

/* Replaces the runs that are node stores of one run (meta
 * manifest.labels.run equal, manifest.labels.node set) by one merged run
 * each, in the place of its first node; every store is open. Returns
 * NR_E_INPUT when two stores hold the same node of a run. */
int nr__rs_join_nodes(nr_runset *rs, void (*progress)(const nr_run *run, const char *what), nr_error *err);
/* Merges run r's parts (r->parts) into its store again, after its cached
 * store was found damaged (closed first; opened again). */
int nr__rs_merge_again(const nr_runset *rs, nr_run *r, nr_error *err);

#endif
