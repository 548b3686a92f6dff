/* niorep info RUN.nio -- to be written with the store reader. */
#include "cli.h"

int nr_cmd_info(int argc, char **argv)
{
    nr_error err = {.code = NR_E_USAGE};
    snprintf(err.msg, sizeof err.msg, "info: not built yet");
    return nr_cli_fail(&err);
}
