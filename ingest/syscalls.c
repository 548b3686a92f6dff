/* syscalls: the table of syscalls the ingest understands, and its lookup.
 * Method: a static const array (one line per syscall), indexed once by an
 * open-addressing hash of the names (nr_hash_bytes), built under pthread_once. */
#include "syscalls.h"

#include <pthread.h>
#include <string.h>

#include "nr_strtab.h"

/* EM(name, op class, counter, handler, fd arg, dirfd arg, path arg, flags arg, new-fd kind, mode arg,
 * mode arg is a stat struct) */
#define EM(n, o, c, h, fd, dfd, path, fl, k, mode, st)                                         \
    {.name = n, .op = NR_OP_##o, .counter = NR_CNT_##c, .handler = NR_H_##h, .kind = NR_KIND_##k, \
     .fd_arg = fd, .dirfd_arg = dfd, .path_arg = path, .flags_arg = fl, .mode_arg = mode, .mode_in_stat = st}
/* E: a call that tells nothing of its file's type. */
#define E(n, o, c, h, fd, dfd, path, fl, k) EM(n, o, c, h, fd, dfd, path, fl, k, -1, 0)
/* Shorthands for the common shapes. */
#define FDCALL(n, o, c, h, fd) E(n, o, c, h, fd, -1, -1, -1, UNKNOWN)
#define PATHCALL(n, o, c, path) E(n, o, c, NONE, -1, -1, path, -1, UNKNOWN)
#define ATCALL(n, o, c) E(n, o, c, NONE, -1, 0, 1, -1, UNKNOWN)
#define NEWFD(n, k) E(n, OPEN, NONE, NEWFD, -1, -1, -1, -1, k)
#define PLAIN(n, o) E(n, o, NONE, NONE, -1, -1, -1, -1, UNKNOWN)
/* A mapping of the file of fd argument 4, argument 1 bytes long. */
#define MAPCALL(n)                                                                                          \
    {.name = n, .op = NR_OP_OTHER, .counter = NR_CNT_NONE, .handler = NR_H_NONE, .kind = NR_KIND_UNKNOWN, \
     .fd_arg = 4, .dirfd_arg = -1, .path_arg = -1, .flags_arg = -1, .mode_arg = -1, .maps = 1}
/* A metadata call whose path names a directory (mkdir, rmdir). */
#define DIRPATHCALL(n) E(n, META, META, NONE, -1, -1, 0, -1, DIRECTORY)
#define DIRATCALL(n) E(n, META, META, NONE, -1, 0, 1, -1, DIRECTORY)
#define DIRCALL(n)                                                                                         \
    {.name = n, .op = NR_OP_META, .counter = NR_CNT_META, .handler = NR_H_NONE, .kind = NR_KIND_UNKNOWN, \
     .fd_arg = 0, .dirfd_arg = -1, .path_arg = -1, .flags_arg = -1, .lists_dir = 1, .mode_arg = -1}
/* Metadata calls whose result tells the file's type (docs/definitions.md,
 * "File kinds"): a stat struct on an fd, a path or a dirfd and path, and
 * mknod's mode. */
#define FDSTAT(n) EM(n, META, META, NONE, 0, -1, -1, -1, UNKNOWN, 1, 1)
#define PATHSTAT(n) EM(n, META, META, NONE, -1, -1, 0, -1, UNKNOWN, 1, 1)
#define ATSTAT(n, st) EM(n, META, META, NONE, -1, 0, 1, -1, UNKNOWN, st, 1)

static const nr_syscall_info syscall_table[] = {
    /* data transfer */
    FDCALL("read", READ, READ, READ, 0),
    FDCALL("readv", READ, READ, READ, 0),
    FDCALL("pread64", READ, READ, PREAD, 0),
    FDCALL("pread", READ, READ, PREAD, 0),
    FDCALL("preadv", READ, READ, PREAD, 0),
    FDCALL("preadv2", READ, READ, PREAD, 0),
    FDCALL("write", WRITE, WRITE, WRITE, 0),
    FDCALL("writev", WRITE, WRITE, WRITE, 0),
    FDCALL("pwrite64", WRITE, WRITE, PWRITE, 0),
    FDCALL("pwrite", WRITE, WRITE, PWRITE, 0),
    FDCALL("pwritev", WRITE, WRITE, PWRITE, 0),
    FDCALL("pwritev2", WRITE, WRITE, PWRITE, 0),
    FDCALL("sendfile", WRITE, NONE, SENDFILE, 0),
    FDCALL("sendfile64", WRITE, NONE, SENDFILE, 0),
    FDCALL("copy_file_range", WRITE, NONE, COPY_RANGE, 2),
    /* socket data calls: not file I/O (the fd kind says socket), counted as calls */
    FDCALL("recvfrom", READ, READ, NONE, 0),
    FDCALL("recvmsg", READ, READ, NONE, 0),
    FDCALL("recvmmsg", READ, READ, NONE, 0),
    FDCALL("sendto", WRITE, WRITE, NONE, 0),
    FDCALL("sendmsg", WRITE, WRITE, NONE, 0),
    FDCALL("sendmmsg", WRITE, WRITE, NONE, 0),
    /* splice(in, [off_in], out, [off_out], n, flags): copy_file_range's layout and meaning */
    FDCALL("splice", WRITE, NONE, COPY_RANGE, 2),
    FDCALL("tee", OTHER, NONE, NONE, 0),
    FDCALL("vmsplice", OTHER, NONE, NONE, 0),

    /* opening and closing */
    E("open", OPEN, OPEN, OPEN, -1, -1, 0, 1, REGULAR),
    E("openat", OPEN, OPEN, OPEN, -1, 0, 1, 2, REGULAR),
    E("openat2", OPEN, OPEN, OPEN, -1, 0, 1, 2, REGULAR),
    E("creat", OPEN, OPEN, OPEN, -1, -1, 0, -1, REGULAR),
    E("open_by_handle_at", OPEN, OPEN, OPEN, -1, -1, -1, 2, REGULAR),
    FDCALL("close", OPEN, CLOSE, CLOSE, 0),
    E("close_range", OPEN, NONE, CLOSE_RANGE, -1, -1, -1, 2, UNKNOWN),
    FDCALL("dup", OPEN, NONE, DUP, 0),
    E("dup2", OPEN, NONE, DUP2, 0, -1, -1, -1, UNKNOWN),
    E("dup3", OPEN, NONE, DUP2, 0, -1, -1, 2, UNKNOWN),
    FDCALL("fcntl", META, META, FCNTL, 0),
    FDCALL("fcntl64", META, META, FCNTL, 0),
    E("pipe", OPEN, NONE, PIPE, -1, -1, -1, -1, PIPE),
    E("pipe2", OPEN, NONE, PIPE, -1, -1, -1, 1, PIPE),
    E("socketpair", OPEN, NONE, SOCKETPAIR, -1, -1, -1, -1, SOCKET),
    E("socket", OPEN, NONE, NEWFD, -1, -1, -1, 1, SOCKET),
    E("accept", OPEN, NONE, NEWFD, 0, -1, -1, -1, SOCKET),
    E("accept4", OPEN, NONE, NEWFD, 0, -1, -1, 3, SOCKET),
    NEWFD("eventfd", ANON),
    E("eventfd2", OPEN, NONE, NEWFD, -1, -1, -1, 1, ANON),
    NEWFD("epoll_create", ANON),
    E("epoll_create1", OPEN, NONE, NEWFD, -1, -1, -1, 0, ANON),
    E("timerfd_create", OPEN, NONE, NEWFD, -1, -1, -1, 1, ANON),
    NEWFD("signalfd", ANON),
    E("signalfd4", OPEN, NONE, NEWFD, -1, -1, -1, 3, ANON),
    E("memfd_create", OPEN, NONE, NEWFD, -1, -1, -1, 1, ANON),
    E("memfd_secret", OPEN, NONE, NEWFD, -1, -1, -1, 0, ANON),
    NEWFD("inotify_init", ANON),
    E("inotify_init1", OPEN, NONE, NEWFD, -1, -1, -1, 0, ANON),
    NEWFD("fanotify_init", ANON),
    NEWFD("userfaultfd", ANON),
    NEWFD("perf_event_open", ANON),
    NEWFD("pidfd_open", ANON),
    NEWFD("io_uring_setup", ANON),
    NEWFD("bpf", ANON),

    /* processes and directories */
    E("clone", OTHER, NONE, CLONE, -1, -1, -1, -1, UNKNOWN),
    E("clone3", OTHER, NONE, CLONE, -1, -1, -1, -1, UNKNOWN),
    E("fork", OTHER, NONE, FORK, -1, -1, -1, -1, UNKNOWN),
    E("vfork", OTHER, NONE, FORK, -1, -1, -1, -1, UNKNOWN),
    E("execve", OTHER, NONE, EXECVE, -1, -1, 0, -1, UNKNOWN),
    E("execveat", OTHER, NONE, EXECVE, -1, 0, 1, -1, UNKNOWN),
    E("unshare", OTHER, NONE, UNSHARE, -1, -1, -1, -1, UNKNOWN),
    E("chdir", META, META, CHDIR, -1, -1, 0, -1, UNKNOWN),
    FDCALL("fchdir", META, META, FCHDIR, 0),
    PATHCALL("chroot", META, META, 0),

    /* metadata on an fd */
    FDSTAT("fstat"),
    FDSTAT("fstat64"),
    FDCALL("fstatfs", META, META, NONE, 0),
    FDCALL("fstatfs64", META, META, NONE, 0),
    FDCALL("ftruncate", META, META, NONE, 0),
    FDCALL("ftruncate64", META, META, NONE, 0),
    FDCALL("fchmod", META, META, NONE, 0),
    FDCALL("fchown", META, META, NONE, 0),
    FDCALL("fgetxattr", META, META, NONE, 0),
    FDCALL("fsetxattr", META, META, NONE, 0),
    FDCALL("flistxattr", META, META, NONE, 0),
    FDCALL("fremovexattr", META, META, NONE, 0),
    FDCALL("fadvise64", META, META, NONE, 0),
    FDCALL("fadvise64_64", META, META, NONE, 0),
    FDCALL("fallocate", META, META, NONE, 0),
    FDCALL("flock", META, META, NONE, 0),
    DIRCALL("getdents"),
    DIRCALL("getdents64"),
    FDCALL("readahead", META, META, NONE, 0),
    FDCALL("ioctl", OTHER, NONE, IOCTL, 0),
    MAPCALL("mmap"),
    MAPCALL("mmap2"),
    FDCALL("lseek", META, META, LSEEK, 0),
    FDCALL("_llseek", META, META, LLSEEK, 0),
    FDCALL("llseek", META, META, LLSEEK, 0),
    FDCALL("fsync", SYNC, SYNC, NONE, 0),
    FDCALL("fdatasync", SYNC, SYNC, NONE, 0),
    FDCALL("syncfs", SYNC, SYNC, NONE, 0),
    FDCALL("sync_file_range", SYNC, SYNC, NONE, 0),
    PLAIN("sync", SYNC),
    PLAIN("msync", SYNC), /* a mapping's address, no fd: no file (until revision 11 class other) */
    FDCALL("epoll_ctl", OTHER, NONE, NONE, 0),
    FDCALL("epoll_wait", OTHER, NONE, NONE, 0),
    FDCALL("epoll_pwait", OTHER, NONE, NONE, 0),
    FDCALL("epoll_pwait2", OTHER, NONE, NONE, 0),
    FDCALL("connect", OTHER, NONE, NONE, 0),
    FDCALL("bind", OTHER, NONE, NONE, 0),
    FDCALL("listen", OTHER, NONE, NONE, 0),
    FDCALL("shutdown", OTHER, NONE, NONE, 0),
    FDCALL("getsockname", OTHER, NONE, NONE, 0),
    FDCALL("getpeername", OTHER, NONE, NONE, 0),
    FDCALL("setsockopt", OTHER, NONE, NONE, 0),
    FDCALL("getsockopt", OTHER, NONE, NONE, 0),

    /* metadata on a path */
    PATHSTAT("stat"),
    PATHSTAT("stat64"),
    PATHSTAT("lstat"),
    PATHSTAT("lstat64"),
    PATHCALL("statfs", META, META, 0),
    PATHCALL("statfs64", META, META, 0),
    PATHCALL("access", META, META, 0),
    PATHCALL("readlink", META, META, 0),
    PATHCALL("unlink", META, META, 0),
    DIRPATHCALL("rmdir"),
    DIRPATHCALL("mkdir"),
    EM("mknod", META, META, NONE, -1, -1, 0, -1, UNKNOWN, 1, 0),
    PATHCALL("chmod", META, META, 0),
    PATHCALL("chown", META, META, 0),
    PATHCALL("lchown", META, META, 0),
    PATHCALL("truncate", META, META, 0),
    PATHCALL("truncate64", META, META, 0),
    PATHCALL("utime", META, META, 0),
    PATHCALL("utimes", META, META, 0),
    PATHCALL("getxattr", META, META, 0),
    PATHCALL("lgetxattr", META, META, 0),
    PATHCALL("setxattr", META, META, 0),
    PATHCALL("lsetxattr", META, META, 0),
    PATHCALL("listxattr", META, META, 0),
    PATHCALL("llistxattr", META, META, 0),
    PATHCALL("removexattr", META, META, 0),
    PATHCALL("lremovexattr", META, META, 0),
    PATHCALL("rename", META, META, 0),
    PATHCALL("link", META, META, 0),
    PATHCALL("symlink", META, META, 1),
    PATHCALL("statmount", META, META, -1),
    ATSTAT("newfstatat", 2),
    ATSTAT("fstatat64", 2),
    ATSTAT("statx", 4),
    ATCALL("faccessat", META, META),
    ATCALL("faccessat2", META, META),
    ATCALL("unlinkat", META, META),
    DIRATCALL("mkdirat"),
    EM("mknodat", META, META, NONE, -1, 0, 1, -1, UNKNOWN, 2, 0),
    ATCALL("fchmodat", META, META),
    ATCALL("fchmodat2", META, META),
    ATCALL("fchownat", META, META),
    ATCALL("readlinkat", META, META),
    ATCALL("utimensat", META, META),
    ATCALL("futimesat", META, META),
    ATCALL("renameat", META, META),
    ATCALL("renameat2", META, META),
    ATCALL("linkat", META, META),
    ATCALL("name_to_handle_at", META, META),
    ATCALL("getxattrat", META, META),
    ATCALL("setxattrat", META, META),
    E("symlinkat", META, META, NONE, -1, 1, 2, -1, UNKNOWN),
};

#define TABLE_SIZE (sizeof syscall_table / sizeof syscall_table[0])
#define INDEX_SLOTS 1024u /* power of two, well above 2 * TABLE_SIZE */

_Static_assert(INDEX_SLOTS >= 2 * TABLE_SIZE, "syscall index too small");

static uint16_t index_slots[INDEX_SLOTS]; /* entry + 1; 0 = empty */
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static void build_index(void)
{
    for (size_t i = 0; i < TABLE_SIZE; i++) {
        const char *name = syscall_table[i].name;
        size_t slot = nr_hash_bytes(name, strlen(name)) & (INDEX_SLOTS - 1);
        while (index_slots[slot])
            slot = (slot + 1) & (INDEX_SLOTS - 1);
        index_slots[slot] = (uint16_t)(i + 1);
    }
}

const nr_syscall_info *nr_syscall_lookup(const char *name, size_t n)
{
    pthread_once(&index_once, build_index);
    size_t slot = nr_hash_bytes(name, n) & (INDEX_SLOTS - 1);
    for (; index_slots[slot]; slot = (slot + 1) & (INDEX_SLOTS - 1)) {
        const nr_syscall_info *e = &syscall_table[index_slots[slot] - 1];
        if (strncmp(e->name, name, n) == 0 && e->name[n] == '\0')
            return e;
    }
    return NULL;
}

nr__syscall_key nr__syscall_short_index[NR__SYSCALL_SHORT_SLOTS];

_Static_assert(NR__SYSCALL_SHORT_SLOTS >= 2 * TABLE_SIZE, "short syscall index too small");
_Static_assert(NR__SYSCALL_SHORT_SLOTS == 1u << 10, "nr__syscall_short_slot takes 10 bits");

/* nr_syscall_short_ref's index, built before main (no thread runs yet):
 * every name of at most NR_SYSCALL_SHORT_MAX bytes. */
__attribute__((constructor)) static void build_short_index(void)
{
    for (size_t i = 0; i < TABLE_SIZE; i++) {
        const char *name = syscall_table[i].name;
        const size_t n = strlen(name);
        if (n == 0 || n > NR_SYSCALL_SHORT_MAX)
            continue;
        char bytes[16] = {0};
        memcpy(bytes, name, n);
        uint64_t w0, w1;
        memcpy(&w0, bytes, 8);
        memcpy(&w1, bytes + 8, 8);
        size_t s = nr__syscall_short_slot(w0, w1);
        while (nr__syscall_short_index[s].ref)
            s = (s + 1) & (NR__SYSCALL_SHORT_SLOTS - 1);
        nr__syscall_short_index[s] = (nr__syscall_key){w0, w1, NR__SYSCALL_SHORT_BASE + i, 0};
    }
}

size_t nr_syscall_count(void) { return TABLE_SIZE; }

const nr_syscall_info *nr_syscall_at(size_t i) { return i < TABLE_SIZE ? &syscall_table[i] : NULL; }
