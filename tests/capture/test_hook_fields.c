/* Unit tests of ingest/hook_fields.c: the fast scan takes the hook's own
 * lines and leaves the rest to jansson, and on every line it takes it
 * gives jansson's fields (hook_fields_agree.h): hand-picked lines, random
 * numbers in every JSON form against strtod, and random edits of real
 * lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hook_fields_agree.h"

static int check_line(const char *line)
{
    char why[512];
    int taken;
    if (hook_fields_agree(line, strlen(line), &taken, why, sizeof why) < 0)
        fail_msg("%s: %s", line, why);
    return taken;
}

/* Lines as workloads/niorep_hook writes them: all taken. */
static void the_hooks_lines_are_scanned(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "{\"ts\":1796000000.000020,\"pid\":7,\"event\":\"io\",\"op\":\"read\",\"path\":\"/data/x.jpg\","
        "\"bytes\":110000,\"dur\":0.000010,\"calls\":2,\"open_dur\":0.000004}",
        "{\"ts\": 1733000000.123456, \"pid\": 41, \"tid\": 42, \"event\": \"phase_begin\", \"phase\": \"train\", "
        "\"depth\": 0}",
        "{\"ts\":1.5,\"pid\":3,\"event\":\"phase_end\",\"phase\":\"train\",\"depth\":0,\"error\":\"ValueError\"}",
        "{\"ts\":2,\"pid\":3,\"event\":\"wait\",\"what\":\"batch\",\"dur\":1e-05,\"first\":true}",
        "{\"ts\":2,\"pid\":3,\"event\":\"mark\",\"name\":\"epoch\"}",
        "{\"ts\":1733000000.5,\"pid\":3,\"event\":\"fork\",\"ppid\":1}",
        "{}",
        " {\"tid\":null,\"first\":false,\"error\":null} \r",
        "{\"ts\":-0.0,\"pid\":-0,\"bytes\":-1,\"dur\":0.1E-3,\"version\":1}",
        "{\"ts\":0.30000000000000004,\"pid\":123456789012345678}",
        "{\"op\":\"\",\"path\":\"a\x7f\"}",
        "{\"attrs\":5,\"out\":\"/h\",\"name\":\"n\",\"what\":\"w\",\"ppid\":1,\"event\":\"mark\"}", /* every other key */
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        assert_int_equal(check_line(lines[i]), 1);
    nr_hook_fields f = {0};
    assert_int_equal(nr_hook_fields_scan(lines[0], strlen(lines[0]), &f), 1);
    assert_int_equal(f.f[NR_HF_TS].kind, NR_HF_REAL);
    assert_true(f.f[NR_HF_TS].d == 1796000000.000020);
    assert_int_equal(f.f[NR_HF_PID].i, 7);
    assert_string_equal(f.f[NR_HF_PATH].s, "/data/x.jpg");
    assert_int_equal(f.f[NR_HF_BYTES].i, 110000);
    assert_int_equal(f.f[NR_HF_TID].kind, NR_HF_ABSENT);
    /* each key to its own field, by its name as the hook writes it */
    static const char every_key[] =
        "{\"event\":0,\"ts\":1,\"pid\":2,\"tid\":3,\"phase\":4,\"error\":5,\"op\":6,\"path\":7,\"bytes\":8,"
        "\"dur\":9,\"name\":10,\"attrs\":11,\"what\":12,\"first\":13,\"version\":14,\"out\":15,\"depth\":16}";
    assert_int_equal(nr_hook_fields_scan(every_key, strlen(every_key), &f), 1);
    for (int k = 0; k < NR_HF_KEYS; k++) {
        assert_int_equal(f.f[k].kind, NR_HF_INT);
        assert_int_equal(f.f[k].i, k);
    }
    nr_hook_fields_free(&f);
}

/* Lines the scan leaves to jansson, which reads them its own way (an
 * error, a nested value, an escape, a key twice: the last one wins). */
static void other_lines_go_to_jansson(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "{\"ts\":2,\"pid\":3,\"event\":\"mark\",\"name\":\"epoch\",\"attrs\":{\"n\":1}}",
        "{\"ts\":2,\"pid\":3,\"pid\":4}",
        "{\"path\":\"a\\\"b\"}",
        "{\"path\":\"\\udcff\"}",
        "{\"path\":\"caf\xc3\xa9\"}",
        "{\"path\":\"bad\xff\"}",
        "{\"path\":\"tab\there\"}",
        "{\"bytes\":12345678901234567890}",
        "{\"bytes\":1234567890123456789}",
        "{\"ts\":1e400}",
        "{\"ts\":1,}",
        "{\"ts\":01}",
        "{\"ts\":1.}",
        "{\"ts\":.5}",
        "{\"ts\":+1}",
        "{\"ts\":1}x",
        "{\"ts\":1",
        "{\"ts\" 1}",
        "{\"ts\":tru}",
        "{\"ts\":truex}",
        "{'ts':1}",
        "[1,2]",
        "\"text\"",
        "",
        "{\"argv\":[\"a\"]}",
        "{\"ts\":NaN}",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        assert_int_equal(check_line(lines[i]), 0);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random JSON number: digits before and after a point, an exponent, a
 * sign, in lengths around the scan's limits (19 digits, 2^53, 10^22). */
static void random_number(char *out, size_t n)
{
    char *p = out;
    if (rng() % 4 == 0)
        *p++ = '-';
    const int int_digits = 1 + (int)(rng() % 20), frac_digits = (int)(rng() % 3 == 0 ? 0 : rng() % 20);
    for (int i = 0; i < int_digits; i++)
        *p++ = (char)('0' + (i == 0 && int_digits > 1 ? 1 + rng() % 9 : rng() % 10));
    if (frac_digits) {
        *p++ = '.';
        for (int i = 0; i < frac_digits; i++)
            *p++ = (char)('0' + rng() % 10);
    }
    if (rng() % 3 == 0)
        p += sprintf(p, "%c%s%d", rng() % 2 ? 'e' : 'E', rng() % 2 ? "-" : rng() % 2 ? "+" : "",
                     (int)(rng() % 40));
    *p = '\0';
    (void)n;
}

static void numbers_are_strtods(void **state)
{
    (void)state;
    char line[200], num[80]; /* two numbers and 14 bytes around them */
    int taken = 0;
    for (int i = 0; i < 300000; i++) {
        if (i % 3 == 0)
            random_number(num, sizeof num);
        else /* doubles as Python's repr and the hook's %.6f write them */
            snprintf(num, sizeof num, i % 3 == 1 ? "%.17g" : "%.6f",
                     (double)(rng() >> 11) / (double)(1ULL << 53) * (rng() % 2 ? 4e9 : 1.0));
        snprintf(line, sizeof line, "{\"ts\":%s,\"dur\":%s}", num, num);
        taken += check_line(line);
    }
    assert_true(taken > 250000); /* most are the scan's own */
}

/* Real lines with a byte inserted, deleted or replaced, by the bytes that
 * matter to JSON and some that do not. */
static void edited_lines_agree(void **state)
{
    (void)state;
    static const char *const seeds[] = {
        "{\"ts\":1796000000.000020,\"pid\":7,\"event\":\"io\",\"op\":\"read\",\"path\":\"/d/x\",\"bytes\":11,"
        "\"dur\":0.000010}",
        "{\"ts\": 1.5, \"pid\": 41, \"tid\": 42, \"event\": \"phase_end\", \"phase\": \"t\", \"error\": null}",
        "{\"ts\":2,\"pid\":3,\"event\":\"wait\",\"what\":\"batch\",\"dur\":1e-05,\"first\":true}",
    };
    static const char bytes[] = "{}[]\":,\\ .eE+-0123456789tfnulx\x80\x01\t";
    char line[256];
    int taken = 0;
    for (int i = 0; i < 200000; i++) {
        const char *seed = seeds[rng() % 3];
        const size_t len = strlen(seed);
        size_t at = rng() % len;
        const char c = bytes[rng() % (sizeof bytes - 1)];
        const int how = (int)(rng() % 3);
        memcpy(line, seed, at);
        size_t n = at;
        if (how == 0) /* insert */
            line[n++] = c;
        else if (how == 2) /* replace */
            line[n++] = c, at++;
        else /* delete */
            at++;
        memcpy(line + n, seed + at, len - at);
        n += len - at;
        char why[512];
        int took;
        if (hook_fields_agree(line, n, &took, why, sizeof why) < 0)
            fail_msg("%.*s: %s", (int)n, line, why);
        taken += took;
    }
    assert_true(taken > 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_hooks_lines_are_scanned),
        cmocka_unit_test(other_lines_go_to_jansson),
        cmocka_unit_test(numbers_are_strtods),
        cmocka_unit_test(edited_lines_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
