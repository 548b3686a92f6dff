/* sline_dump: prints what nr_sline_parse makes of each line of a log
 * (a development aid: `bench/sline_dump < strace.log`). Not part of ctest. */
#include <stdio.h>
#include <string.h>

#include "strace_line.h"

static const char *const kind_names[] = {"SYSCALL", "UNFINISHED", "RESUMED", "SIGNAL", "EXITED",
                                         "KILLED", "NOTICE", "SUMMARY", "CONTINUATION", "BLANK",
                                         "BAD"};

int main(void)
{
    static char line[1 << 20];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n'))
            n--;
        nr_sline s;
        nr_sline_parse(line, n, &s);
        printf("%-12s pid=%lld ts=%d:%lld ts2=%d:%lld dur=%lld name=%.*s res=%d/%d:%lld annot=%.*s "
               "errno=%.*s text=%.*s nargs=%u reason=%s | args=%.*s\n",
               kind_names[s.kind], (long long)s.pid, s.ts_form, (long long)s.ts_ns, s.ts2_form,
               (long long)s.ts2_ns, (long long)s.dur_ns, (int)s.name.n, s.name.p, s.has_result,
               s.result_unknown, (long long)s.result, (int)s.result_annot.n, s.result_annot.p,
               (int)s.errno_name.n, s.errno_name.p, (int)s.errno_text.n, s.errno_text.p,
               nr_sarg_count(s.args), s.reason ? s.reason : "-", (int)(s.args.n > 60 ? 60 : s.args.n),
               s.args.p);
    }
    return 0;
}
