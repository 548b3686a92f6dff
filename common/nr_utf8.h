/* nr_utf8: text that should be UTF-8 but may not be (a run's name is a file
 * or directory name: bytes), made valid the same way everywhere it is shown
 * (the HTML report, the figures): each invalid byte as the four characters
 * \xNN. */
#ifndef NR_UTF8_H
#define NR_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid:
 * overlong forms, surrogates, code points above U+10FFFF and U+FFFE, U+FFFF
 * (not XML characters) are invalid. s is NUL-terminated (a NUL ends any
 * sequence early, so it is never read past). */
size_t nr_utf8_seq_len(const unsigned char *s);

/* Length of the valid UTF-8 sequence at p[0..n) (RFC 3629: no overlong
 * forms, no surrogates, at most U+10FFFF; U+FFFE and U+FFFF are valid
 * here), or 0 when p[0] starts none within n bytes. For bytes that may
 * hold a NUL (a store's strings, printed or exported with their length). */
size_t nr_utf8_len_within(const unsigned char *p, size_t n);

/* Copies s (NULL: "") into out (cap bytes incl. NUL, truncated on a UTF-8
 * boundary) keeping valid UTF-8 and replacing each invalid byte and each
 * control character other than \t \n by the four characters \xNN (upper
 * case hex). Returns out. */
char *nr_utf8_clean(const char *s, char *out, size_t cap);

/* The size nr_utf8_clean needs for all of s, NUL included: strlen(s) + 1
 * exactly when s is clean already. */
size_t nr_utf8_clean_size(const char *s);

/* The name a phase or mark with a blank name takes (docs/hook-format.md,
 * "Names"). */
#define NR_UNNAMED "(unnamed)"

/* 1 when s (NULL: "") shows nothing: it is empty or all its code points
 * are blank ones (controls, white space, the invisible format characters
 * and fillers: docs/hook-format.md, "Names", the table the Python hook
 * holds too); else 0. An invalid byte shows (as \xNN), so is not blank. */
int nr_utf8_blank(const char *s);

#endif
