#include "nr_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void nr_error_clear(nr_error *err)
{
    if (!err)
        return;
    err->code = NR_OK;
    err->msg[0] = '\0';
}

static int error_vset(nr_error *err, int code, const char *fmt, va_list ap)
{
    if (!err)
        return code;
    err->code = code;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return code;
}

int nr_error_set(nr_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, code, fmt, ap);
    va_end(ap);
    return code;
}

int nr_error_errno(nr_error *err, int code, int errno_value, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, code, fmt, ap);
    va_end(ap);
    if (err) {
        size_t used = strlen(err->msg);
        snprintf(err->msg + used, sizeof err->msg - used, ": %s", strerror(errno_value));
    }
    return code;
}

const char *nr_error_name(int code)
{
    switch (code) {
#define NR_X_NAME(c, value, exit_status, text) case value: return text;
    NR_ERRORS(NR_X_NAME)
#undef NR_X_NAME
    }
    return "unknown error";
}

int nr_error_exit_status(int code)
{
    switch (code) {
#define NR_X_EXIT(c, value, exit_status, text) case value: return exit_status;
    NR_ERRORS(NR_X_EXIT)
#undef NR_X_EXIT
    }
    return 1;
}
