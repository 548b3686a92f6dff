/* trace_manifest: the record of one traced run (manifest.json). It holds
 * wall-clock times and machine facts on purpose: it is the run's record;
 * the store keeps them only as meta rows. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "json_file.h"
#include "trace.h"

/* Decodes the octal escapes (\040 for space, ...) of a mountinfo field in place. */
static void unescape_mountinfo(char *s)
{
    char *out = s;
    for (char *p = s; *p;) {
        if (p[0] == '\\' && p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' &&
            p[3] <= '7') {
            *out++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
            p += 4;
        } else {
            *out++ = *p++;
        }
    }
    *out = '\0';
}

/* True when mount point mp contains path (mp is a path prefix at a '/' boundary). */
static int mount_contains(const char *mp, const char *path)
{
    size_t n = strlen(mp);
    if (strcmp(mp, "/") == 0)
        return 1;
    return strncmp(mp, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static void copy_field(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src);
}

int nr__trace_mount_of(const char *path, char *type, char *mount_point, char *source, size_t cap)
{
    char real[PATH_MAX];
    if (!realpath(path, real))
        return NR_E_NOTFOUND;
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (!f)
        return NR_E_NOTFOUND;
    char *line = NULL;
    size_t line_cap = 0;
    size_t best_len = 0;
    int found = 0;
    /* Format (proc(5)): id parent maj:min root mount_point options [optional...] - fstype source superopts.
     * The last matching line wins among equal mount points (a later mount hides an earlier one). */
    while (getline(&line, &line_cap, f) > 0) {
        char *fields[8] = {0};
        int nf = 0;
        char *save = NULL;
        char *after_dash = NULL;
        for (char *tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
            if (strcmp(tok, "-") == 0) {
                after_dash = save;
                break;
            }
            if (nf < 8)
                fields[nf++] = tok;
        }
        if (nf < 5 || !after_dash)
            continue;
        char *fstype = strtok_r(NULL, " \n", &save);
        char *src = strtok_r(NULL, " \n", &save);
        if (!fstype || !src)
            continue;
        unescape_mountinfo(fields[4]);
        if (!mount_contains(fields[4], real))
            continue;
        size_t len = strlen(fields[4]);
        if (len >= best_len) {
            best_len = len;
            unescape_mountinfo(src);
            copy_field(type, cap, fstype);
            copy_field(mount_point, cap, fields[4]);
            copy_field(source, cap, src);
            found = 1;
        }
    }
    free(line);
    fclose(f);
    return found ? 0 : NR_E_NOTFOUND;
}

/* s as a JSON string (nr_cli_json_text), null when out of memory: an
 * argument 'x\xffy' was left out of the manifest without a word until
 * review 47. */
static json_t *json_text(const char *s)
{
    json_t *j = nr_cli_json_text(s);
    return j ? j : json_null();
}

/* A --watch path that is not there even at the end is said, not only
 * left as nulls (a typo was taken without a word: review 46). */
static json_t *fs_entry(const char *path, const char *role)
{
    char type[PATH_MAX], mp[PATH_MAX], src[PATH_MAX];
    json_t *o = json_object();
    json_object_set_new(o, "path", json_text(path));
    json_object_set_new(o, "role", json_string(role));
    const int found = nr__trace_mount_of(path, type, mp, src, sizeof type) == 0;
    if (!found && strcmp(role, "watch") == 0)
        fprintf(stderr, "niorep trace: --watch %s: no such file or folder at the end of the run: its file "
                        "system is unknown (null in manifest.json)\n",
                path);
    if (found) {
        json_object_set_new(o, "type", json_string(type));
        json_object_set_new(o, "mount_point", json_string(mp));
        json_object_set_new(o, "source", json_string(src));
    } else {
        json_object_set_new(o, "type", json_null());
        json_object_set_new(o, "mount_point", json_null());
        json_object_set_new(o, "source", json_null());
    }
    return o;
}

static json_t *host_facts(void)
{
    json_t *host = json_object();
    char name[256] = "";
    if (gethostname(name, sizeof name - 1) == 0)
        json_object_set_new(host, "name", json_string(name));
    struct utsname u;
    if (uname(&u) == 0) {
        json_t *k = json_object();
        json_object_set_new(k, "sysname", json_string(u.sysname));
        json_object_set_new(k, "release", json_string(u.release));
        json_object_set_new(k, "version", json_string(u.version));
        json_object_set_new(k, "machine", json_string(u.machine));
        json_object_set_new(host, "kernel", k);
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    json_object_set_new(host, "cpus", json_integer(cpus));
    json_object_set_new(host, "memory_bytes", json_integer((json_int_t)pages * page_size));
    return host;
}

static json_t *string_array(char *const *items, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_text(items[i]));
    return a;
}

static json_t *labels_object(const nr__trace_run *run)
{
    json_t *o = json_object();
    for (size_t i = 0; i < run->label_count; i++) {
        const char *eq = strchr(run->labels[i], '=');
        char *key = strndup(run->labels[i], (size_t)(eq - run->labels[i]));
        if (key)
            json_object_set_new(o, key, json_string(eq + 1));
        free(key);
    }
    return o;
}

/* The command as one shell-like line, for humans (argv stays the truth). */
static json_t *command_line(char *const *argv, size_t n)
{
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(argv[i]) * 4 + 3;
    char *s = malloc(len), *p = s;
    if (!s)
        return json_null();
    for (size_t i = 0; i < n; i++) {
        if (i)
            *p++ = ' ';
        int plain = argv[i][0] != '\0' && strpbrk(argv[i], " \t\n'\"\\$`*?[]{}()<>|&;#~") == NULL;
        if (plain) {
            p = stpcpy(p, argv[i]);
            continue;
        }
        *p++ = '\'';
        for (const char *c = argv[i]; *c; c++) {
            if (*c == '\'')
                p = stpcpy(p, "'\\''");
            else
                *p++ = *c;
        }
        *p++ = '\'';
    }
    *p = '\0';
    json_t *j = json_text(s);
    free(s);
    return j;
}

static json_t *build_manifest(const nr__trace_run *run)
{
    json_t *m = json_object();
    json_object_set_new(m, "format", json_string("niorep-run"));
    json_object_set_new(m, "version", json_integer(1));
    json_object_set_new(m, "labels", labels_object(run));
    json_object_set_new(m, "host", host_facts());

    json_t *niorep = json_object();
    json_object_set_new(niorep, "version", json_string(NR_VERSION));
    json_object_set_new(m, "niorep", niorep);

    json_t *strace = json_object();
    json_object_set_new(strace, "path", json_string(run->strace_path));
    json_object_set_new(strace, "version", json_string(run->strace_version));
    json_t *sargv = json_array();
    for (const char *const *a = run->strace_argv; a && *a; a++)
        json_array_append_new(sargv, json_text(*a));
    json_object_set_new(strace, "argv", sargv);
    json_object_set_new(m, "strace", strace);

    json_object_set_new(m, "command", string_array(run->command, run->command_count));
    json_object_set_new(m, "command_line", command_line(run->command, run->command_count));
    char cwd[PATH_MAX];
    /* not cleaned: the ingest resolves relative paths with it, and a
       cleaned one would be another folder; null when not UTF-8 */
    json_t *cwd_text = getcwd(cwd, sizeof cwd) ? json_string(cwd) : NULL;
    json_object_set_new(m, "cwd", cwd_text ? cwd_text : json_null());

    json_t *logs = json_object();
    json_object_set_new(logs, "strace", json_string(run->per_pid ? "strace.log.<pid>" : "strace.log"));
    json_object_set_new(logs, "per_pid", json_boolean(run->per_pid));
    json_object_set_new(logs, "hook", run->hook_written ? json_string("hook.jsonl") : json_null());
    json_object_set_new(m, "logs", logs);
    json_object_set_new(m, "hook_dir", run->hook_dir ? json_string(run->hook_dir) : json_null());

    json_object_set_new(m, "start", json_real(run->start_time));
    json_object_set_new(m, "end", json_real(run->end_time));
    json_object_set_new(m, "duration", json_real(run->end_time - run->start_time));
    json_t *ex = json_object();
    json_object_set_new(ex, "status", json_integer(run->exit_status));
    json_object_set_new(ex, "code", run->exit_code >= 0 ? json_integer(run->exit_code) : json_null());
    json_object_set_new(ex, "signal", run->term_signal ? json_integer(run->term_signal) : json_null());
    json_object_set_new(m, "exit", ex);
    json_object_set_new(m, "interrupted", json_boolean(run->interrupted));

    json_t *fs = json_array();
    json_array_append_new(fs, fs_entry(".", "cwd"));
    for (size_t i = 0; i < run->watch_count; i++)
        json_array_append_new(fs, fs_entry(run->watch[i], "watch"));
    json_array_append_new(fs, fs_entry(run->run_dir, "run_dir"));
    json_object_set_new(m, "fs", fs);
    return m;
}

int nr__trace_manifest_write(const nr__trace_run *run, nr_error *err)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/manifest.json", run->run_dir) >= sizeof path)
        return nr_error_set(err, NR_E_LIMIT, "%s: run directory path too long", run->run_dir);
    json_t *m = build_manifest(run);
    int rc = nr_cli_write_json(path, m, JSON_INDENT(2) | JSON_REAL_PRECISION(17), err);
    json_decref(m);
    return rc;
}
