/* niorep export RUN.nio -- to be written with the store reader. */
#include "cli.h"

int nr_cmd_export(int argc, char **argv)
{
    nr_error err = {.code = NR_E_USAGE};
    snprintf(err.msg, sizeof err.msg, "export: not built yet");
    return nr_cli_fail(&err);
}
