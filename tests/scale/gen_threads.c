/* gen_threads: a small model of fd tables, descriptions and tasks that
 * prints what strace -f -ttt -T -y would print of random calls on it. */
#include "gen_threads.h"

#include <string.h>

#define MAX_TASKS 12
#define MAX_TABLES 4
#define MAX_FDS 24
#define MAX_DESCS 128 /* more than the fds of every table and the calls in flight: never runs out */
#define NFILES 20
#define FD_FREE (-1)
#define FD_TAKEN (-2) /* by a call in flight (an open or a dup): the kernel reserves it at entry */

typedef struct desc {
    int file;          /* /d/f<file>; -1: the directory /d */
    int writable;
    int refs;          /* fds and calls in flight holding it; 0: free slot */
} desc;

typedef struct table {
    int fd[MAX_FDS];   /* a desc index, FD_FREE or FD_TAKEN */
    int refs;          /* tasks */
} table;

enum { OP_NONE, OP_OPEN, OP_READ, OP_PREAD, OP_WRITE, OP_LSEEK, OP_CLOSE, OP_DUP, OP_FCNTL, OP_FSTATAT };

typedef struct task {
    int tid, pid, table, live;
    int op, fd, newfd, desc;   /* the call in flight (op != OP_NONE) */
    int64_t arg, result;
} task;

typedef struct gen {
    FILE *f;
    uint64_t rng;
    int64_t us;
    task tasks[MAX_TASKS];
    int ntasks;
    table tables[MAX_TABLES];
    int ntables;
    desc descs[MAX_DESCS];
    int next_tid;
    size_t lines;
    int forked;
} gen;

static uint64_t rnd(gen *g)
{
    uint64_t z = (g->rng += UINT64_C(0x9e3779b97f4a7c15)); /* splitmix64 */
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int chance(gen *g, unsigned percent) { return rnd(g) % 100 < percent; }

/* The line's "TID STAMP " (the clock moves 1-20 us a line). */
static void begin(gen *g, const task *t)
{
    g->us += 1 + (int64_t)(rnd(g) % 20);
    fprintf(g->f, "%d 1700000000.%06lld ", t->tid, (long long)g->us);
    g->lines++;
}

static void end_call(gen *g) { fprintf(g->f, " <0.0000%02u>\n", (unsigned)(rnd(g) % 90 + 10)); }

static void path_of(const desc *d, char *out, size_t n)
{
    if (d->file < 0)
        snprintf(out, n, "/d");
    else
        snprintf(out, n, "/d/f%d", d->file);
}

/* "FD</path>" of an open fd of table tb. */
static void fd_text(const gen *g, const table *tb, int fd, char *out, size_t n)
{
    char p[32];
    path_of(&g->descs[tb->fd[fd]], p, sizeof p);
    snprintf(out, n, "%d<%s>", fd, p);
}

static int desc_new(gen *g, int file, int writable)
{
    for (int i = 0; i < MAX_DESCS; i++)
        if (g->descs[i].refs == 0) {
            g->descs[i] = (desc){.file = file, .writable = writable, .refs = 1};
            return i;
        }
    return -1;
}

static int lowest_free(const table *tb)
{
    for (int fd = 3; fd < MAX_FDS; fd++)
        if (tb->fd[fd] == FD_FREE)
            return fd;
    return -1;
}

/* A random open fd of tb: of a regular file when `file`, writable when
 * `writable`; -1 when there is none. */
static int pick_fd(gen *g, const table *tb, int file, int writable)
{
    int open[MAX_FDS], n = 0;
    for (int fd = 3; fd < MAX_FDS; fd++) {
        int d = tb->fd[fd];
        if (d >= 0 && (!file || g->descs[d].file >= 0) && (!writable || g->descs[d].writable))
            open[n++] = fd;
    }
    return n ? open[rnd(g) % (uint64_t)n] : -1;
}

static const char *stat_of(const desc *d) { return d->file < 0 ? "S_IFDIR|0755" : "S_IFREG|0644"; }

/* Whether a call of op holds its fd's description until it returns (a
 * dup's hold passes to the new fd). */
static int holds_file(int op)
{
    return op == OP_READ || op == OP_PREAD || op == OP_WRITE || op == OP_LSEEK || op == OP_FSTATAT;
}

/* The second half of t's call in flight: its <... resumed> line when
 * `resumed`, else the rest of the line its first half began; then its
 * effect on the tables. */
static void finish_call(gen *g, task *t, int resumed)
{
    static const char *const names[] = {[OP_OPEN] = "openat", [OP_READ] = "read",    [OP_PREAD] = "pread64",
                                        [OP_WRITE] = "write", [OP_LSEEK] = "lseek", [OP_CLOSE] = "close",
                                        [OP_DUP] = "dup",     [OP_FCNTL] = "fcntl", [OP_FSTATAT] = "newfstatat"};
    table *tb = &g->tables[t->table];
    if (resumed) {
        begin(g, t);
        fprintf(g->f, "<... %s resumed>", names[t->op]);
    }
    char p[32];
    switch (t->op) {
    case OP_OPEN: {
        int d = desc_new(g, (int)t->arg, (int)t->result);
        path_of(&g->descs[d], p, sizeof p);
        fprintf(g->f, ") = %d<%s>", t->fd, p);
        tb->fd[t->fd] = d;
        break;
    }
    case OP_CLOSE: fputs(") = 0", g->f); break;
    case OP_DUP:
    case OP_FCNTL:
        path_of(&g->descs[t->desc], p, sizeof p);
        fprintf(g->f, ") = %d<%s>", t->newfd, p);
        tb->fd[t->newfd] = t->desc; /* the call's hold on the description passes to the new fd */
        break;
    case OP_READ: fprintf(g->f, "\"\"..., 4096) = %lld", (long long)t->result); break;
    case OP_PREAD: fprintf(g->f, "\"\"..., 4096, %lld) = %lld", (long long)t->arg, (long long)t->result); break;
    case OP_WRITE: fputs(") = 4", g->f); break;
    case OP_LSEEK: fprintf(g->f, ") = %lld", (long long)t->arg); break;
    default: {
        const desc *d = &g->descs[t->desc];
        fprintf(g->f, "{st_mode=%s, st_size=%d, ...}, AT_EMPTY_PATH) = 0", stat_of(d), 100 + d->file);
        break;
    }
    }
    end_call(g);
    if (holds_file(t->op))
        g->descs[t->desc].refs--;
    t->op = OP_NONE;
}

/* Ends the first half of t's call: left <unfinished ...> when split, else
 * finished on the same line. */
static void first_half_done(gen *g, task *t, int split)
{
    if (split)
        fputs(" <unfinished ...>\n", g->f);
    else
        finish_call(g, t, 0);
}

static void start_open(gen *g, task *t, table *tb, int split)
{
    if (chance(g, 10)) {
        begin(g, t);
        fprintf(g->f, "openat(AT_FDCWD</w>, \"/d/none%d\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)",
                (int)(rnd(g) % 5));
        end_call(g);
        return;
    }
    int fd = lowest_free(tb);
    if (fd < 0)
        return;
    int dir = chance(g, 12), writable = !dir && chance(g, 25);
    int file = dir ? -1 : (int)(rnd(g) % NFILES);
    char p[32];
    path_of(&(desc){.file = file}, p, sizeof p);
    const char *flags = dir ? "O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY"
                        : writable ? "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0644" : "O_RDONLY|O_CLOEXEC";
    tb->fd[fd] = FD_TAKEN;
    t->op = OP_OPEN;
    t->fd = fd;
    t->arg = file;
    t->result = writable;
    begin(g, t);
    fprintf(g->f, "openat(AT_FDCWD</w>, \"%s\", %s", p, flags);
    first_half_done(g, t, split);
}

/* A call on an open fd (read, pread64, write, lseek, newfstatat of ""). */
static void start_fd_call(gen *g, task *t, table *tb, int op, int split)
{
    int fd = pick_fd(g, tb, op != OP_FSTATAT, op == OP_WRITE);
    if (fd < 0)
        return;
    char a[64];
    fd_text(g, tb, fd, a, sizeof a);
    t->op = op;
    t->fd = fd;
    t->desc = tb->fd[fd];
    g->descs[t->desc].refs++; /* the call holds the file while in flight */
    t->arg = op == OP_PREAD ? (int64_t)(rnd(g) % 100000) : op == OP_LSEEK ? (int64_t)(rnd(g) % 3) * 4096 : 0;
    t->result = op == OP_WRITE ? 4 : chance(g, 15) ? 0 : (int64_t)(1 + rnd(g) % 4096);
    begin(g, t);
    switch (op) {
    case OP_READ: fprintf(g->f, "read(%s, ", a); break;
    case OP_PREAD: fprintf(g->f, "pread64(%s, ", a); break;
    case OP_WRITE: fprintf(g->f, "write(%s, \"abcd\", 4", a); break;
    case OP_LSEEK: fprintf(g->f, "lseek(%s, %lld, SEEK_SET", a, (long long)t->arg); break;
    default: fprintf(g->f, "newfstatat(%s, \"\", ", a); break;
    }
    first_half_done(g, t, split);
}

static void start_close(gen *g, task *t, table *tb, int split)
{
    int fd = pick_fd(g, tb, 0, 0);
    if (fd < 0 || chance(g, 5)) {
        int bad = lowest_free(tb);
        if (bad < 0)
            return;
        begin(g, t);
        fprintf(g->f, "close(%d) = -1 EBADF (Bad file descriptor)", bad);
        end_call(g);
        return;
    }
    char a[64];
    fd_text(g, tb, fd, a, sizeof a);
    g->descs[tb->fd[fd]].refs--;
    tb->fd[fd] = FD_FREE; /* at the call's entry: another thread may take the number before it returns */
    t->op = OP_CLOSE;
    begin(g, t);
    fprintf(g->f, "close(%s", a);
    first_half_done(g, t, split);
}

/* dup, fcntl(F_DUPFD_CLOEXEC) (either may be split), dup2, dup3. */
static void start_dup(gen *g, task *t, table *tb, int split)
{
    int fd = pick_fd(g, tb, 0, 0);
    if (fd < 0)
        return;
    char a[64];
    fd_text(g, tb, fd, a, sizeof a);
    int d = tb->fd[fd];
    unsigned kind = (unsigned)(rnd(g) % 4);
    if (kind >= 2) { /* dup2/dup3 onto a number that no call in flight holds */
        int target = 3 + (int)(rnd(g) % 12);
        if (target == fd || tb->fd[target] == FD_TAKEN)
            return;
        char old[64], p[32];
        if (tb->fd[target] >= 0)
            fd_text(g, tb, target, old, sizeof old);
        else
            snprintf(old, sizeof old, "%d", target);
        path_of(&g->descs[d], p, sizeof p);
        begin(g, t);
        fprintf(g->f, "%s(%s, %s%s) = %d<%s>", kind == 2 ? "dup2" : "dup3", a, old, kind == 2 ? "" : ", O_CLOEXEC",
                target, p);
        end_call(g);
        if (tb->fd[target] >= 0)
            g->descs[tb->fd[target]].refs--;
        tb->fd[target] = d;
        g->descs[d].refs++;
        return;
    }
    int nfd = lowest_free(tb);
    if (nfd < 0)
        return;
    tb->fd[nfd] = FD_TAKEN;
    g->descs[d].refs++; /* held by the call, then by the new fd */
    t->op = kind == 0 ? OP_DUP : OP_FCNTL;
    t->fd = fd;
    t->newfd = nfd;
    t->desc = d;
    begin(g, t);
    if (kind == 0)
        fprintf(g->f, "dup(%s", a);
    else
        fprintf(g->f, "fcntl(%s, F_DUPFD_CLOEXEC, 0", a);
    first_half_done(g, t, split);
}

static void other_call(gen *g, task *t)
{
    begin(g, t);
    if (chance(g, 20)) {
        fprintf(g->f, "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=%d, si_uid=0, si_status=0, "
                      "si_utime=0, si_stime=0} ---\n", t->pid + 100);
        return;
    }
    if (chance(g, 50)) {
        fprintf(g->f, "getpid() = %d", t->pid);
    } else {
        int file = (int)(rnd(g) % (NFILES + 4));
        if (file < NFILES)
            fprintf(g->f, "newfstatat(AT_FDCWD</w>, \"/d/f%d\", {st_mode=S_IFREG|0644, st_size=%d, ...}, 0) = 0", file,
                    100 + file);
        else
            fprintf(g->f, "newfstatat(AT_FDCWD</w>, \"/d/none%d\", 0x7ffc, 0) = -1 ENOENT (No such file or directory)",
                    file);
    }
    end_call(g);
}

static void getdents(gen *g, task *t, table *tb)
{
    for (int fd = 3; fd < MAX_FDS; fd++)
        if (tb->fd[fd] >= 0 && g->descs[tb->fd[fd]].file < 0) {
            begin(g, t);
            fprintf(g->f, "getdents64(%d</d>, 0x5555 /* %d entries */, 32768) = %d", fd, NFILES, NFILES * 32);
            end_call(g);
            return;
        }
}

/* One step of task t: a call, or the end of the one it has in flight. */
static void step(gen *g, task *t)
{
    if (t->op != OP_NONE) {
        if (chance(g, 50))
            finish_call(g, t, 1);
        return;
    }
    table *tb = &g->tables[t->table];
    const int split = chance(g, 33);
    const unsigned r = (unsigned)(rnd(g) % 100);
    if (r < 22)
        start_open(g, t, tb, split);
    else if (r < 57) {
        static const int ops[] = {OP_READ, OP_READ, OP_READ, OP_READ, OP_PREAD, OP_WRITE, OP_LSEEK, OP_FSTATAT};
        start_fd_call(g, t, tb, ops[rnd(g) % (sizeof ops / sizeof ops[0])], split);
    } else if (r < 72)
        start_close(g, t, tb, split);
    else if (r < 80)
        start_dup(g, t, tb, split);
    else if (r < 84)
        getdents(g, t, tb);
    else
        other_call(g, t);
}

/* A new task of table tbl: a thread of process pid, or with pid 0 a
 * process of its own. */
static task *new_task(gen *g, int pid, int tbl)
{
    if (g->ntasks == MAX_TASKS)
        return NULL;
    task *t = &g->tasks[g->ntasks++];
    const int tid = g->next_tid++;
    *t = (task){.tid = tid, .pid = pid ? pid : tid, .table = tbl, .live = 1};
    g->tables[tbl].refs++;
    return t;
}

/* A live task, or NULL. */
static task *pick_task(gen *g)
{
    int live[MAX_TASKS], n = 0;
    for (int i = 0; i < g->ntasks; i++)
        if (g->tasks[i].live)
            live[n++] = i;
    return n ? &g->tasks[live[rnd(g) % (uint64_t)n]] : NULL;
}

static void clone_thread(gen *g, task *parent)
{
    if (parent->op != OP_NONE)
        return;
    task *t = new_task(g, parent->pid, parent->table);
    if (!t)
        return;
    begin(g, parent);
    fprintf(g->f, "clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, "
                  "exit_signal=0, stack=0x7f00, stack_size=0x1000}, 88) = %d",
            t->tid);
    end_call(g);
}

static void fork_process(gen *g, task *parent)
{
    if (parent->op != OP_NONE || g->ntables == MAX_TABLES || g->ntasks == MAX_TASKS)
        return;
    int tbl = g->ntables++;
    table *from = &g->tables[parent->table], *to = &g->tables[tbl];
    for (int fd = 0; fd < MAX_FDS; fd++) {
        to->fd[fd] = from->fd[fd] >= 0 ? from->fd[fd] : FD_FREE;
        if (to->fd[fd] >= 0)
            g->descs[to->fd[fd]].refs++;
    }
    to->refs = 0;
    if (g->next_tid < 600 + 100 * tbl) /* the child's tids stand apart in the log */
        g->next_tid = 600 + 100 * tbl;
    task *child = new_task(g, 0, tbl);
    begin(g, parent);
    fprintf(g->f, "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
                  "child_tidptr=0x7f71b0c59590) = %d",
            child->tid);
    end_call(g);
}

/* Ends t (its call in flight first), its fds released with the table's
 * last task. */
static void exit_task(gen *g, task *t)
{
    if (t->op != OP_NONE)
        finish_call(g, t, 1);
    begin(g, t);
    fputs("+++ exited with 0 +++\n", g->f);
    t->live = 0;
    table *tb = &g->tables[t->table];
    if (--tb->refs > 0)
        return;
    for (int fd = 0; fd < MAX_FDS; fd++)
        if (tb->fd[fd] >= 0) {
            g->descs[tb->fd[fd]].refs--;
            tb->fd[fd] = FD_FREE;
        }
}

int gen_threads_log(FILE *f, uint64_t seed, size_t lines)
{
    static gen g; /* large; one at a time */
    memset(&g, 0, sizeof g);
    g.f = f;
    g.rng = seed;
    g.next_tid = 500;
    g.ntables = 1;
    for (int fd = 0; fd < MAX_FDS; fd++)
        g.tables[0].fd[fd] = FD_FREE;
    task *root = new_task(&g, 0, 0);
    begin(&g, root);
    fputs("openat(AT_FDCWD</w>, \"/d/f99\", O_RDONLY|O_CLOEXEC) = 3</d/f99>", f);
    end_call(&g);
    g.tables[0].fd[3] = desc_new(&g, 99, 0);
    for (int k = 0; k < 2 + (int)(seed % 3); k++)
        clone_thread(&g, &g.tasks[0]);
    while (g.lines < lines) {
        task *t = pick_task(&g);
        if (!t)
            break;
        const int rare = chance(&g, 1) && chance(&g, 40); /* 0.4% of the steps */
        if (!g.forked && g.lines > lines / 8 && chance(&g, 5)) {
            g.forked = 1;
            fork_process(&g, &g.tasks[0]);
        } else if (rare && t->tid != t->pid && t->op == OP_NONE) {
            exit_task(&g, t); /* a thread, not a process's leader */
        } else if (rare) {
            clone_thread(&g, t);
        } else {
            step(&g, t);
        }
    }
    for (int i = g.ntasks; i-- > 0;)
        if (g.tasks[i].live)
            exit_task(&g, &g.tasks[i]);
    return ferror(f) ? -1 : 0;
}
