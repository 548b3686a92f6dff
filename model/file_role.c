/* file_role: the rules of docs/definitions.md, "Job files and runtime
 * files". A path is runtime when a system or shared-memory prefix starts it, a component
 * names a package or bytecode folder or multiprocessing's temporary folder,
 * or its last component is a Python module or a shared library; a file is
 * also runtime when it is the probe of Python's tempfile. */
#include "file_role.h"

#include <stddef.h>
#include <string.h>

/* Folders of the operating system's software and configuration: a job
 * keeps its data elsewhere. */
static const char *const system_prefixes[] = {
    "/usr/", "/lib/", "/lib32/", "/lib64/", "/libx32/", "/bin/", "/sbin/", "/etc/",
};

/* POSIX shared memory and named semaphores: a DataLoader's workers hand
 * their batches to the main process through /dev/shm/torch_* files of a
 * few bytes each (the tensors' storage is mmap'ed), and multiprocessing's
 * locks are /dev/shm/sem.* files. Inter-process plumbing, not storage: in a
 * traced epoch they were 174 of 395 job files and made a hot set of the
 * data. */
static const char *const ipc_prefixes[] = {"/dev/shm/"};

/* Folders that hold installed Python packages or their bytecode, wherever
 * the environment lives (a venv, conda, ~/.local). */
static const char *const package_folders[] = {"site-packages", "dist-packages", "__pycache__"};

/* Names a module or package ends with: sources, bytecode, stubs, path files. */
static const char *const module_suffixes[] = {".py", ".pyc", ".pyi", ".pth", ".so"};

static int has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int has_suffix(const char *s, size_t n, const char *suffix)
{
    const size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Package metadata folders: NAME.dist-info, NAME.egg-info. */
static int is_metadata_folder(const char *s, size_t n)
{
    return has_suffix(s, n, ".dist-info") || has_suffix(s, n, ".egg-info");
}

/* A versioned shared library: NAME.so.N[.N...] (libc.so.6,
 * libcudart.so.12.1), the numbers read from the end. */
static int is_versioned_library(const char *s, size_t n)
{
    size_t i = n;
    for (;;) {
        const size_t number_end = i;
        while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
            i--;
        if (i == number_end || i == 0 || s[i - 1] != '.')
            return 0;
        i--; /* the dot before the number */
        if (i >= 3 && memcmp(s + i - 3, ".so", 3) == 0)
            return 1;
    }
}

/* A name Python's tempfile makes up: n characters of "a-z0-9_"
 * (_RandomNameSequence). */
static int is_random_name(const char *s, size_t len, size_t n)
{
    if (len != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

/* multiprocessing's temporary folder, tempfile.mkdtemp(prefix="pymp-"):
 * its listeners' sockets and its forkserver's files live there. */
static int is_multiprocessing_folder(const char *s, size_t n)
{
    return n > 5 && memcmp(s, "pymp-", 5) == 0 && is_random_name(s + 5, n - 5, 8);
}

static int is_package_folder(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof package_folders / sizeof *package_folders; i++)
        if (strlen(package_folders[i]) == n && memcmp(s, package_folders[i], n) == 0)
            return 1;
    return is_metadata_folder(s, n) || is_multiprocessing_folder(s, n);
}

static int is_module_name(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof module_suffixes / sizeof *module_suffixes; i++)
        if (has_suffix(s, n, module_suffixes[i]))
            return 1;
    return is_versioned_library(s, n);
}

enum nr_file_role nr_file_role_of(const char *path)
{
    if (!path)
        return NR_FILE_JOB;
    for (size_t i = 0; i < sizeof system_prefixes / sizeof *system_prefixes; i++)
        if (has_prefix(path, system_prefixes[i]))
            return NR_FILE_RUNTIME;
    for (size_t i = 0; i < sizeof ipc_prefixes / sizeof *ipc_prefixes; i++)
        if (has_prefix(path, ipc_prefixes[i]))
            return NR_FILE_RUNTIME;
    const char *part = path;
    for (;;) {
        const char *slash = strchr(part, '/');
        const size_t n = slash ? (size_t)(slash - part) : strlen(part);
        if (slash ? is_package_folder(part, n) : is_module_name(part, n))
            return NR_FILE_RUNTIME;
        if (!slash)
            return NR_FILE_JOB;
        part = slash + 1;
    }
}

/* tempfile._get_default_tempdir: in each folder it tries, it opens a new
 * file of a random name (O_RDWR|O_CREAT|O_EXCL), writes b"blat", closes and
 * unlinks it; once in every process that first asks for the temporary
 * folder (each DataLoader worker of each epoch). */
static int is_tempfile_probe(const char *path, const nr_file_totals *t)
{
    if (t->bytes_written != 4 || t->write_calls != 1 || t->bytes_read != 0 || t->read_calls != 0 ||
        t->open_calls != 1)
        return 0;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    return is_random_name(name, strlen(name), 8);
}

enum nr_file_role nr_file_role_of_file(const char *path, const nr_file_totals *totals)
{
    if (nr_file_role_of(path) == NR_FILE_RUNTIME)
        return NR_FILE_RUNTIME;
    return path && totals && is_tempfile_probe(path, totals) ? NR_FILE_RUNTIME : NR_FILE_JOB;
}
