/* nr_error: the one error table of niorep, and an error value that carries a message.
 *
 * Library code returns 0 or a negative NR_E* code and fills an nr_error with a
 * sentence naming the file, the line or offset (where there is one) and what
 * was expected. Only cli/ prints and exits. */
#ifndef NR_ERROR_H
#define NR_ERROR_H

#include <stddef.h>

/* X(code, value, exit status, short text) */
#define NR_ERRORS(X)                                                    \
    X(NR_OK,        0,  0, "success")                                   \
    X(NR_E_NOMEM,  -1,  1, "out of memory")                             \
    X(NR_E_IO,     -2,  1, "input/output error")                        \
    X(NR_E_INPUT,  -3,  1, "bad input")                                 \
    X(NR_E_FORMAT, -4,  1, "damaged or unsupported store")              \
    X(NR_E_USAGE,  -5,  2, "usage error")                               \
    X(NR_E_NOTFOUND, -6, 1, "not found")                                \
    X(NR_E_LIMIT,  -7,  1, "limit exceeded")                            \
    X(NR_E_INTERRUPTED, -8, 1, "interrupted")                           \
    X(NR_E_EXTERNAL, -9, 1, "external program failed")

enum nr_error_code {
#define NR_X_ENUM(code, value, exit_status, text) code = value,
    NR_ERRORS(NR_X_ENUM)
#undef NR_X_ENUM
};

typedef struct nr_error {
    int code;        /* an nr_error_code; NR_OK when nothing went wrong */
    char msg[1024];  /* a full sentence, no trailing newline */
} nr_error;

/* Resets err to NR_OK with an empty message. Accepts NULL. */
void nr_error_clear(nr_error *err);

/* Records code and a printf-style message in err (if err is not NULL) and
 * returns code, so that `return nr_error_set(err, NR_E_INPUT, ...)` reads as one step. */
int nr_error_set(nr_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Like nr_error_set, but appends ": strerror(errno_value)". */
int nr_error_errno(nr_error *err, int code, int errno_value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The short text of a code ("bad input"); never NULL. */
const char *nr_error_name(int code);

/* The process exit status for a code: 0 success, 1 bad input, 2 usage. */
int nr_error_exit_status(int code);

/* Evaluates expr (an int-returning call); returns its value from the
 * enclosing function when negative. The name says it may return. */
#define NR_TRY(expr)                 \
    do {                             \
        int nr_try_rc_ = (expr);     \
        if (nr_try_rc_ < 0)          \
            return nr_try_rc_;       \
    } while (0)

#endif
