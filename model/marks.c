/* marks: the hook's instants from table marks (docs/summary-schema.md#marks):
 * the first NR_MODEL_MAX_MARKS kept for the timeline and the report, all of
 * them counted by name. Memory is fixed, whatever the number of marks. */
#include <string.h>

#include "model_internal.h"
#include "nr_utf8.h"

enum { MK_TS, MK_PID, MK_NAME, MK_ATTRS, MK_PHASE, MK_NCOLS };
static const char *const mark_cols[MK_NCOLS] = {"ts_ns", "pid", "name", "attrs", "phase_id"};

static const char *phase_name(const nr_model *m, int64_t phase_id)
{
    const int64_t k = phase_id >= 0 ? nr__idmap_lookup(&m->phase_ids, phase_id) : -1;
    return k >= 0 ? nr_model_phase_at(m, (size_t)k)->name : "unphased";
}

/* Counts a mark under its name; a name not yet seen takes a slot while one
 * is free. *kept: the model's copy of the name, NULL for a name beyond the
 * slots. */
static int count_name(nr_model *m, const char *name, size_t len, const char **kept)
{
    nr_model_marks *mk = &m->marks;
    *kept = NULL;
    for (size_t i = 0; i < mk->nnames; i++)
        if (strlen(m->mark_names[i]) == len && memcmp(m->mark_names[i], name, len) == 0) {
            m->mark_name_counts[i]++;
            *kept = m->mark_names[i];
            return 0;
        }
    if (mk->nnames == NR_MODEL_MAX_MARK_NAMES) {
        mk->other_names++;
        return 0;
    }
    if (!(m->mark_names[mk->nnames] = nr_arena_strndup(&m->arena, name, len)))
        return NR_E_NOMEM;
    *kept = m->mark_names[mk->nnames];
    m->mark_name_counts[mk->nnames++] = 1;
    return 0;
}

/* Keeps row i named name[0..len); its name is the counted copy kept when
 * there is one. */
static int keep_mark(nr_model *m, const nr_col_chunk *c, size_t i, const char *kept, const char *name, size_t len)
{
    nr_model_mark *k = &m->mark_v[m->marks.n];
    k->ts_ns = c[MK_TS].i64[i];
    k->pid = c[MK_PID].i64[i];
    k->name = kept ? kept : nr_arena_strndup(&m->arena, name, len);
    k->attrs = nr_arena_strndup(&m->arena, c[MK_ATTRS].str[i], c[MK_ATTRS].str_len[i]);
    k->phase = phase_name(m, c[MK_PHASE].i64[i]);
    if (!k->name || !k->attrs)
        return NR_E_NOMEM;
    m->marks.n++;
    return 0;
}

/* Every row's phase_id is checked (nr__check_phase_ref): until session 55
 * one that phases lacks showed as "unphased", while merge refused it. */
static int read_marks(nr_model *m, const nr_store_table *t, const int *col, nr_col_chunk *c, nr_error *err)
{
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++) {
        for (int k = 0; k < MK_NCOLS; k++)
            NR_TRY(nr_store_read_chunk(t, (size_t)col[k], rg, &c[k], err));
        for (size_t i = 0; i < c[MK_TS].n; i++) {
            NR_TRY(nr__check_phase_ref(m, "marks", m->marks.total, c[MK_PHASE].i64[i], err));
            NR_TRY(nr__check_time("marks", "ts_ns", m->marks.total, c[MK_TS].i64[i], err));
            /* a blank name, in a store of an ingest before session 54, as
               the ingest now stores it (docs/hook-format.md, "Names") */
            const int blank = nr_utf8_blank(c[MK_NAME].str[i]);
            const char *name = blank ? NR_UNNAMED : c[MK_NAME].str[i], *kept;
            const size_t len = blank ? strlen(NR_UNNAMED) : c[MK_NAME].str_len[i];
            m->marks.total++;
            NR_TRY(count_name(m, name, len, &kept));
            if (m->marks.n < NR_MODEL_MAX_MARKS)
                NR_TRY(keep_mark(m, c, i, kept, name, len));
        }
    }
    return 0;
}

int nr__marks_load(nr_model *m, const nr_store *s, nr_error *err)
{
    m->marks = (nr_model_marks){.v = m->mark_v, .names = m->mark_names, .name_counts = m->mark_name_counts};
    const nr_store_table *t = nr_store_find_table(s, "marks");
    if (!t)
        return 0; /* a store written before session 40 */
    int col[MK_NCOLS];
    for (int k = 0; k < MK_NCOLS; k++)
        if ((col[k] = nr_store_col_index(t, mark_cols[k])) < 0)
            return nr_error_set(err, NR_E_FORMAT, "table marks lacks column %s", mark_cols[k]);
    nr_col_chunk c[MK_NCOLS];
    for (int k = 0; k < MK_NCOLS; k++)
        nr_col_chunk_init(&c[k]);
    int rc = read_marks(m, t, col, c, err);
    if (rc == NR_E_NOMEM)
        rc = nr_error_set(err, rc, "marks: out of memory");
    for (int k = 0; k < MK_NCOLS; k++)
        nr_col_chunk_fini(&c[k]);
    return rc;
}

const nr_model_marks *nr_model_get_marks(const nr_model *m) { return &m->marks; }
