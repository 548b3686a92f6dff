/* json_file: dump, then write through nr_outfile. */
#include "json_file.h"

#include <stdlib.h>
#include <string.h>

#include "nr_outfile.h"
#include "nr_utf8.h"

json_t *nr_cli_json_text(const char *s)
{
    const size_t need = nr_utf8_clean_size(s);
    if (need == strlen(s) + 1)
        return json_string(s);
    char *clean = malloc(need);
    json_t *j = clean ? json_string(nr_utf8_clean(s, clean, need)) : NULL;
    free(clean);
    return j;
}

int nr_cli_stage_json(const char *path, const json_t *doc, size_t flags, nr_outfile *out, nr_error *err)
{
    char *text = json_dumps(doc, flags);
    if (!text)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    int rc = nr_outfile_open(out, path, err);
    if (rc == 0)
        rc = nr_outfile_write(out, text, strlen(text), err);
    if (rc == 0)
        rc = nr_outfile_write(out, "\n", 1, err);
    if (rc < 0)
        nr_outfile_abort(out);
    free(text);
    return rc;
}

int nr_cli_write_json(const char *path, const json_t *doc, size_t flags, nr_error *err)
{
    nr_outfile out;
    NR_TRY(nr_cli_stage_json(path, doc, flags, &out, err));
    return nr_outfile_commit(&out, err);
}
