/* print_text: text from a trace (phase and mark names, paths, examples of
 * skipped lines) printed for a human on a terminal. The text is the traced
 * program's: a control byte or an escape sequence in it would move the
 * cursor or recolour the terminal, and a newline would break a table. */
#ifndef NR_CLI_PRINT_TEXT_H
#define NR_CLI_PRINT_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Prints s[0..n): printable ASCII and valid UTF-8 as they are, any other
 * byte as \xNN, a backslash as \\. */
void nr_cli_print_text(FILE *out, const char *s, size_t n);
/* nr_cli_print_text of the NUL-terminated s in a column of width
 * characters: cut after the last whole character (a UTF-8 sequence or an
 * escape counts as what it shows) that fits, padded with spaces. */
void nr_cli_print_cell(FILE *out, const char *s, size_t width);

#endif
