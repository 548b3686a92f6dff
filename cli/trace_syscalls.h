/* trace_syscalls: the strace flags and syscall set of `niorep trace`, as
 * data (docs/capture.md explains each entry). A leading '?' makes strace
 * ignore a name the running kernel/strace does not know. */
#ifndef TRACE_SYSCALLS_H
#define TRACE_SYSCALLS_H

typedef struct nr__trace_syscall {
    const char *name;
    const char *why;   /* the one reason the model needs it */
} nr__trace_syscall;

static const nr__trace_syscall nr__trace_syscalls[] = {
    /* opening and closing: the fd table and per-file open counts */
    {"open", "fd table; open latency"},
    {"openat", "fd table; open latency"},
    {"?openat2", "fd table (newer libc/kernels)"},
    {"creat", "fd table"},
    {"close", "fd table; close latency"},
    {"?close_range", "fd table (bulk close before exec)"},
    {"dup", "fd table"},
    {"dup2", "fd table"},
    {"dup3", "fd table"},
    {"fcntl", "fd table (F_DUPFD*, O_APPEND)"},
    {"pipe", "fd table: classify pipe fds"},
    {"pipe2", "fd table: classify pipe fds"},
    {"socket", "fd table: classify socket fds"},
    {"socketpair", "fd table: DataLoader worker queues"},
    {"?eventfd2", "fd table: classify eventfds"},
    /* data transfer: bytes, request sizes, offsets, latency */
    {"read", "bytes and latency of reads"},
    {"pread64", "positioned reads"},
    {"readv", "vector reads"},
    {"preadv", "positioned vector reads"},
    {"?preadv2", "positioned vector reads"},
    {"write", "bytes and latency of writes"},
    {"pwrite64", "positioned writes"},
    {"writev", "vector writes"},
    {"pwritev", "positioned vector writes"},
    {"?pwritev2", "positioned vector writes"},
    {"lseek", "file offsets: sequential vs random"},
    {"sendfile", "in-kernel copies (bytes read and written)"},
    {"copy_file_range", "in-kernel copies (bytes read and written)"},
    {"?splice", "in-kernel copies through a pipe (bytes read or written)"},
    {"mmap", "file-backed mappings (their reads are invisible: counted to say so)"},
    {"?io_uring_setup", "io_uring rings (the I/O they submit is invisible: counted to say so)"},
    /* metadata */
    {"stat", "metadata calls"},
    {"lstat", "metadata calls"},
    {"fstat", "metadata calls"},
    {"newfstatat", "metadata calls"},
    {"?statx", "metadata calls"},
    {"access", "metadata calls"},
    {"faccessat", "metadata calls"},
    {"?faccessat2", "metadata calls"},
    {"getdents64", "directory listing (dataset scans)"},
    {"readlink", "metadata calls (path resolution: realpath, symlinked caches)"},
    {"readlinkat", "metadata calls (path resolution)"},
    {"mkdir", "metadata calls"},
    {"mkdirat", "metadata calls"},
    {"rename", "checkpoint commit (temp file + rename)"},
    {"renameat", "checkpoint commit"},
    {"renameat2", "checkpoint commit"},
    {"unlink", "metadata calls"},
    {"unlinkat", "metadata calls"},
    {"rmdir", "metadata calls"},
    {"truncate", "metadata calls"},
    {"ftruncate", "metadata calls; shared-memory tensors of workers"},
    {"fallocate", "preallocation of outputs"},
    {"chdir", "working directory for relative paths"},
    {"fchdir", "working directory for relative paths"},
    /* durability */
    {"fsync", "sync latency (checkpoint durability)"},
    {"fdatasync", "sync latency"},
    {"sync", "sync latency"},
    {"syncfs", "sync latency"},
    {"sync_file_range", "sync latency"},
    {"msync", "sync of mapped files"},
    /* processes: the tree that phases are inherited along */
    {"clone", "process and thread tree; fd inheritance"},
    {"?clone3", "process and thread tree (newer glibc)"},
    {"fork", "process tree"},
    {"vfork", "process tree (posix_spawn)"},
    {"execve", "program of each process; CLOEXEC"},
    {"execveat", "program of each process"},
};

/* strace options besides -o and -e trace=; see docs/capture.md. */
static const char *const nr__trace_strace_flags[] = {
    "-f",            /* follow forks, clones and threads */
    "-ttt",          /* Unix timestamps with microseconds: the hook's clock */
    "-T",            /* time spent in each call */
    "-y",            /* paths of fd arguments */
    "-q",            /* no attach/detach notices; exit lines stay */
    "-s", "0",       /* no string payloads: smaller logs, no data leaks */
    "--seccomp-bpf", /* stop only at traced syscalls: far less overhead */
};

#endif
