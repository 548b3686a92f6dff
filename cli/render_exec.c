/* render_exec: build, figures and compare in the niorep binary, which does
 * not link the render stage. Each runs in niorep-render, the same commands
 * linked with it, built beside niorep: this one replaces itself with that
 * one (exec, same process), so that the other commands do not load pango,
 * cairo, libxml2 and the libraries they pull in (about 40 shared libraries
 * and 13-17 ms of start-up in this VM: docs/performance.md, session 21). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define RENDER_EXE "niorep-render"

int nr_cmd_render_exec(int argc, char **argv)
{
    char dir[PATH_MAX], path[PATH_MAX + sizeof RENDER_EXE];
    if (nr_cli_exe_dir(dir, sizeof dir) < 0) {
        fprintf(stderr, "niorep %s: cannot find %s: /proc/self/exe: %s\n", argv[0], RENDER_EXE, strerror(errno));
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s", dir, RENDER_EXE);
    char **args = malloc(((size_t)argc + 2) * sizeof *args);
    if (!args) {
        fprintf(stderr, "niorep %s: out of memory\n", argv[0]);
        return 1;
    }
    args[0] = path; /* then the command, its arguments and argv's NULL */
    memcpy(args + 1, argv, ((size_t)argc + 1) * sizeof *args);
    execv(path, args);
    const int e = errno;
    free(args);
    fprintf(stderr, "niorep %s: cannot run %s (built beside niorep): %s\n", argv[0], path, strerror(e));
    return 1;
}
