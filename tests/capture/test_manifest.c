/* Unit tests of ingest/manifest.c: flattening to sorted dotted keys. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "manifest.h"

static int load_text(const char *text, nr_manifest *m, nr_error *err)
{
    char path[] = "/tmp/nr_test_manifest_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    int rc = nr_manifest_load(path, m, err);
    unlink(path);
    return rc;
}

static void flattens_sorted(void **state)
{
    nr_manifest m;
    nr_manifest_init(&m);
    nr_error err;
    nr_error_clear(&err);
    assert_int_equal(load_text("{\"labels\":{\"workload\":\"vit\",\"cluster\":\"a\"},\"cwd\":\"/home/u\",\n"
                               " \"fs\":[{\"type\":\"ext4\",\"source\":null},{\"type\":\"nfs\"}],\n"
                               " \"host\":{\"cpus\":2},\"start\":1.5,\"interrupted\":false,\"empty\":{},"
                               " \"command\":[\"python3\",\"x.py\"]}",
                               &m, &err),
                     0);
    const char *keys[] = {"command.0", "command.1", "cwd", "fs.0.source", "fs.0.type", "fs.1.type",
                          "host.cpus", "interrupted", "labels.cluster", "labels.workload", "start"};
    const char *values[] = {"python3", "x.py", "/home/u", "", "ext4", "nfs", "2", "false", "a", "vit", "1.5"};
    assert_int_equal(m.count, 11);
    for (size_t i = 0; i < 11; i++) {
        assert_string_equal(m.items[i].key, keys[i]);
        assert_string_equal(m.items[i].value, values[i]);
    }
    assert_string_equal(m.cwd, "/home/u");
    assert_string_equal(nr_manifest_get(&m, "labels.workload"), "vit");
    assert_string_equal(nr_manifest_get(&m, "command.0"), "python3");
    assert_null(nr_manifest_get(&m, "labels"));
    assert_null(nr_manifest_get(&m, "zzz"));
    nr_manifest_fini(&m);
}

static void malformed_names_line_and_column(void **state)
{
    nr_manifest m;
    nr_manifest_init(&m);
    nr_error err;
    nr_error_clear(&err);
    assert_int_equal(load_text("{\"a\": 1,\n \"b\": }\n", &m, &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "line 2"));
    assert_int_equal(load_text("[1]", &m, &err), NR_E_INPUT);
    assert_int_equal(nr_manifest_load("/nonexistent/manifest.json", &m, &err), NR_E_IO);
    assert_int_equal(m.count, 0);
    assert_null(m.cwd);
    nr_manifest_fini(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flattens_sorted),
        cmocka_unit_test(malformed_names_line_and_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
