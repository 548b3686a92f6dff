/* nr_spool: bytes kept on disk rather than in memory until they are read
 * back: an unlinked temporary file in $TMPDIR (where unset, or no file can
 * be made there: /tmp), appended to and read by offset. Nothing is left
 * behind, whatever ends the process. */
#ifndef NR_SPOOL_H
#define NR_SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"

typedef struct nr_spool {
    int fd;        /* -1 until the first append */
    uint64_t size; /* bytes appended */
    char *dir;     /* the folder of the file, for messages (owned) */
} nr_spool;

#define NR_SPOOL_INIT {.fd = -1, .size = 0, .dir = NULL}

/* Appends n bytes (creating the file on the first call); NR_E_IO naming the
 * folders tried. */
int nr_spool_append(nr_spool *s, const void *p, size_t n, nr_error *err);
/* Reads n bytes from offset off (within what was appended) into p. */
int nr_spool_read(const nr_spool *s, uint64_t off, void *p, size_t n, nr_error *err);
/* Closes the file (its space goes back to the file system). */
void nr_spool_close(nr_spool *s);

#endif
