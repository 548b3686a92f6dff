/* trace_syscalls: the strace flags and syscall set of `niorep trace`, as
 * data (docs/capture.md explains each entry). A leading '?' makes strace
 * ignore a name the running kernel/strace does not know: every name that
 * the 64-bit architectures of asm-generic/unistd.h (arm64, riscv64,
 * loongarch64) lack carries one, since strace refuses to start on an
 * unknown bare name (tests/capture/check_trace_set.py). */
#ifndef TRACE_SYSCALLS_H
#define TRACE_SYSCALLS_H

typedef struct nr__trace_syscall {
    const char *name;
    const char *why;   /* the one reason the model needs it */
} nr__trace_syscall;

static const nr__trace_syscall nr__trace_syscalls[] = {
    /* opening and closing: the fd table and per-file open counts */
    {"?open", "fd table; open latency"},
    {"openat", "fd table; open latency"},
    {"?openat2", "fd table (newer libc/kernels)"},
    {"?creat", "fd table"},
    {"close", "fd table; close latency"},
    {"?close_range", "fd table (bulk close before exec)"},
    {"dup", "fd table"},
    {"?dup2", "fd table"},
    {"dup3", "fd table"},
    {"fcntl", "fd table (F_DUPFD*, O_APPEND)"},
    {"?pipe", "fd table: classify pipe fds"},
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
    {"?stat", "metadata calls"},
    {"?lstat", "metadata calls"},
    {"?fstat", "metadata calls"},
    {"?newfstatat", "metadata calls"},
    {"?statx", "metadata calls"},
    {"?access", "metadata calls"},
    {"faccessat", "metadata calls"},
    {"?faccessat2", "metadata calls"},
    {"getdents64", "directory listing (dataset scans)"},
    {"?readlink", "metadata calls (path resolution: realpath, symlinked caches)"},
    {"readlinkat", "metadata calls (path resolution)"},
    {"?mkdir", "metadata calls"},
    {"mkdirat", "metadata calls"},
    {"?mknod", "file types: a fifo made by mkfifo is a pipe, not storage"},
    {"mknodat", "file types: a fifo made by mkfifo is a pipe, not storage"},
    {"statfs", "metadata calls (free space: shutil.disk_usage)"},
    {"fstatfs", "metadata calls"},
    {"?chmod", "metadata calls (os.chmod, shutil.copy2's copystat)"},
    {"fchmod", "metadata calls"},
    {"fchmodat", "metadata calls"},
    {"?fchmodat2", "metadata calls (newer glibc)"},
    {"?chown", "metadata calls"},
    {"fchown", "metadata calls"},
    {"?lchown", "metadata calls"},
    {"fchownat", "metadata calls"},
    {"utimensat", "metadata calls (os.utime, shutil.copy2's copystat)"},
    {"?utime", "metadata calls"},
    {"?utimes", "metadata calls"},
    {"?futimesat", "metadata calls"},
    {"?link", "metadata calls (hard links)"},
    {"linkat", "metadata calls (hard links)"},
    {"?symlink", "metadata calls (symlinked caches such as Hugging Face's)"},
    {"symlinkat", "metadata calls (symlinked caches such as Hugging Face's)"},
    {"getxattr", "metadata calls (extended attributes)"},
    {"lgetxattr", "metadata calls (extended attributes)"},
    {"fgetxattr", "metadata calls (extended attributes)"},
    {"setxattr", "metadata calls (extended attributes)"},
    {"lsetxattr", "metadata calls (extended attributes)"},
    {"fsetxattr", "metadata calls (extended attributes)"},
    {"listxattr", "metadata calls (shutil.copy2 lists a file's attributes)"},
    {"llistxattr", "metadata calls (shutil.copy2 lists a file's attributes)"},
    {"flistxattr", "metadata calls (extended attributes)"},
    {"removexattr", "metadata calls (extended attributes)"},
    {"lremovexattr", "metadata calls (extended attributes)"},
    {"fremovexattr", "metadata calls (extended attributes)"},
    {"?rename", "checkpoint commit (temp file + rename)"},
    {"?renameat", "checkpoint commit"},
    {"renameat2", "checkpoint commit"},
    {"?unlink", "metadata calls"},
    {"unlinkat", "metadata calls"},
    {"?rmdir", "metadata calls"},
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
    {"?fork", "process tree"},
    {"?vfork", "process tree (posix_spawn)"},
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
