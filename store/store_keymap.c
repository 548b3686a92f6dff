/* store_keymap: the per-key table of the KEY_DELTA and KEY_NEXT transforms
 * (store_internal.h), shared by the writer and the reader. */
#include <stdlib.h>

#include "store_internal.h"

int nr__keymap_reset(nr__keymap *m, size_t rows)
{
    size_t slots = 16;
    unsigned bits = 4;
    while (slots < 2 * rows) { /* half full at most: short probes */
        slots *= 2;
        bits++;
    }
    if (!m->slots || slots > m->mask + 1) { /* grows only: a larger table serves as well */
        nr__keymap_fini(m);
        m->slots = calloc(slots, sizeof *m->slots);
        if (!m->slots)
            return NR_E_NOMEM;
        m->mask = slots - 1;
        m->shift = 64 - bits;
        m->stamp = 0;
    }
    if (++m->stamp == 0) { /* wrapped: stamps of old chunks could match again */
        for (size_t i = 0; i <= m->mask; i++)
            m->slots[i].stamp = 0;
        m->stamp = 1;
    }
    return 0;
}

void nr__keymap_fini(nr__keymap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->mask = 0;
}
