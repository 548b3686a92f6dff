/* syscalls: the syscall table of the ingest, as data. Each known syscall has
 * an operation class (store/nr_schema.h), the per-file counter it feeds
 * (docs/definitions.md), the handler kind procmodel uses to replay it, and
 * where its fd / dirfd / path arguments are. Unknown names are NR_OP_OTHER
 * with no handler: they still become events. */
#ifndef SYSCALLS_H
#define SYSCALLS_H

#include <stddef.h>
#include <stdint.h>

#include "nr_schema.h"

/* How procmodel replays a syscall. */
typedef enum nr_sc_handler {
    NR_H_NONE = 0,      /* nothing to replay; the event carries the fd/path file when the table names one */
    NR_H_OPEN,          /* open, openat, creat, openat2, open_by_handle_at: returns a new fd */
    NR_H_CLOSE,         /* close */
    NR_H_CLOSE_RANGE,   /* close_range(first, last, flags) */
    NR_H_DUP,           /* dup(old) = new */
    NR_H_DUP2,          /* dup2(old, new), dup3(old, new, flags) */
    NR_H_FCNTL,         /* fcntl F_DUPFD*, F_SETFD, F_SETFL */
    NR_H_IOCTL,         /* ioctl: FIOCLEX / FIONCLEX set and clear close-on-exec; the rest change nothing modelled */
    NR_H_READ,          /* read, readv: at the fd's offset, advances it */
    NR_H_PREAD,         /* pread64, preadv, preadv2: explicit offset (preadv2 -1 = current) */
    NR_H_WRITE,         /* write, writev: at the fd's offset (or the end with O_APPEND) */
    NR_H_PWRITE,        /* pwrite64, pwritev, pwritev2 */
    NR_H_LSEEK,         /* lseek: offset = result */
    NR_H_LLSEEK,        /* _llseek(fd, hi, lo, [result], whence) */
    NR_H_SENDFILE,      /* sendfile(out, in, [off], n) */
    NR_H_COPY_RANGE,    /* copy_file_range, splice (in, [off_in], out, [off_out], n, flags) */
    NR_H_PIPE,          /* pipe, pipe2: [rfd, wfd] */
    NR_H_SOCKETPAIR,    /* socketpair(d, t, p, [a, b]) */
    NR_H_NEWFD,         /* socket, accept, eventfd, epoll_create, memfd_create, ...: result is a new fd of `kind` */
    NR_H_CLONE,         /* clone, clone3: result is the child tid; flags decide sharing */
    NR_H_FORK,          /* fork, vfork */
    NR_H_EXECVE,        /* execve, execveat */
    NR_H_UNSHARE,       /* unshare(flags): CLONE_FILES, CLONE_FS stop sharing the fd table, the cwd */
    NR_H_CHDIR,         /* chdir(path) */
    NR_H_FCHDIR,        /* fchdir(fd) */
} nr_sc_handler;

/* Which per-file counter of table files a call adds to. */
typedef enum nr_sc_counter {
    NR_CNT_NONE = 0,
    NR_CNT_READ,
    NR_CNT_WRITE,
    NR_CNT_OPEN,
    NR_CNT_CLOSE,
    NR_CNT_META,
    NR_CNT_SYNC,
} nr_sc_counter;

typedef struct nr_syscall_info {
    const char *name;
    uint8_t op;         /* nr_op_class */
    uint8_t counter;    /* nr_sc_counter */
    uint8_t handler;    /* nr_sc_handler */
    uint8_t kind;       /* NR_H_NEWFD: nr_file_kind of the new fd; a call on a path: of the file
                           it names (mkdir, mkdirat, rmdir: NR_KIND_DIRECTORY), else NR_KIND_UNKNOWN */
    int8_t fd_arg;      /* argument holding the fd the call works on; -1 none */
    int8_t dirfd_arg;   /* argument holding a dirfd for path_arg; -1 = relative to cwd */
    int8_t path_arg;    /* argument holding a path; -1 none */
    int8_t flags_arg;   /* argument holding open/dup3/pipe2 flags; -1 none */
    uint8_t lists_dir;  /* getdents, getdents64: the fd is a directory */
    int8_t mode_arg;    /* argument telling the type of the file the call names: mknod's mode, a
                           stat's struct (its st_mode, statx's stx_mode); -1 none */
    uint8_t mode_in_stat; /* mode_arg is a stat struct, not a mode */
    uint8_t maps;       /* mmap, mmap2: maps its fd's file, argument 1 bytes long (the event's bytes) */
} nr_syscall_info;

/* Returns the entry for name[0..n), or NULL when the syscall is not in the
 * table. Thread-safe; the table's hash index is built on first use. */
const nr_syscall_info *nr_syscall_lookup(const char *name, size_t n);

/* The same lookup for a name of 1 to NR_SYSCALL_SHORT_MAX bytes given as
 * its bytes in two little-endian words, zero past the name (a lexer holds
 * it so already): returns base + the entry's index (nr_syscall_at), or
 * base - 1 when the name is not in the table, base >= 1 being
 * NR__SYSCALL_SHORT_BASE (so that a lexer stores the answer as it is). The
 * index it reads is built when the program loads (a constructor), so it
 * needs no once-check per call; it is read-only afterwards. Inline: a lexer
 * calls it per line. */
enum { NR_SYSCALL_SHORT_MAX = 15, NR__SYSCALL_SHORT_SLOTS = 1024 /* power of two */, NR__SYSCALL_SHORT_BASE = 2 };
typedef struct nr__syscall_key {
    uint64_t w0, w1;  /* the name's bytes 0-7 and 8-15, zero past the name */
    uint64_t ref;     /* NR__SYSCALL_SHORT_BASE + index; 0 = empty slot */
    uint64_t pad;     /* 32 bytes: a slot's address is one shift */
} nr__syscall_key;
extern nr__syscall_key nr__syscall_short_index[NR__SYSCALL_SHORT_SLOTS];

static inline size_t nr__syscall_short_slot(uint64_t w0, uint64_t w1)
{
    return (size_t)(((w0 + w1) * UINT64_C(0x9e3779b97f4a7c15)) >> 54); /* 10 bits: NR__SYSCALL_SHORT_SLOTS */
}

static inline unsigned nr_syscall_short_ref(uint64_t w0, uint64_t w1)
{
    for (size_t s = nr__syscall_short_slot(w0, w1);; s = (s + 1) & (NR__SYSCALL_SHORT_SLOTS - 1)) {
        const nr__syscall_key *k = &nr__syscall_short_index[s];
        if (((k->w0 ^ w0) | (k->w1 ^ w1)) == 0) /* an empty slot holds no name: w0 of a name is not 0 */
            return (unsigned)k->ref;
        if (!k->ref)
            return NR__SYSCALL_SHORT_BASE - 1;
    }
}

/* Number of entries and entry i, for tests and docs. */
size_t nr_syscall_count(void);
const nr_syscall_info *nr_syscall_at(size_t i);

/* Whether a looked-up reference (nr_sline.syscall_ref and
 * nr_pm_event.syscall_ref: NR__SYSCALL_SHORT_BASE + the entry's index)
 * names an entry of the table: a compare, for paths that need no entry. */
static inline int nr_syscall_ref_known(unsigned ref) { return ref >= NR__SYSCALL_SHORT_BASE; }

/* The entry a looked-up reference names, or NULL for a name not looked up
 * or not in the table. */
static inline const nr_syscall_info *nr_syscall_of_ref(unsigned ref)
{
    return nr_syscall_ref_known(ref) ? nr_syscall_at(ref - NR__SYSCALL_SHORT_BASE) : NULL;
}

#endif
