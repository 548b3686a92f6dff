#!/bin/bash
# The report's and the summary's words say what their numbers measure, on
# hand-written runs with known answers (docs/report.md). One section per rule.
# usage: report_text_test.sh NIOREP
set -u
niorep=$(realpath "$1")
. "$(dirname "$0")/checks.sh"
cd "$tmp" || exit 1

# The cell of key $2 in report $1: its text.
cell() { grep -o "data-nr-key=\"$2\" data-nr-value=\"[^\"]*\">[^<]*<" "$1" | sed 's/.*>\(.*\)</\1/'; }

# 1. Data-bound: the main process (3000) reads 0.1 s of a train phase of
# 0.99 s while its worker (3001) reads 0.8 s. The loop was blocked 10.1% of
# the phase (main_io_share), the summed I/O time is 0.909 of the wall time
# (io_share); the headline percentage is the first, the second a ratio.
mkdir -p bound
cat > bound/strace.log <<'EOF'
3000 1700000000.000100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f0000000a10) = 3001 <0.000050>
3000 1700000000.000200 openat(AT_FDCWD, "/data/m.bin", O_RDONLY) = 3</data/m.bin> <0.000010>
3001 1700000000.000300 openat(AT_FDCWD, "/data/w.bin", O_RDONLY) = 4</data/w.bin> <0.000010>
3000 1700000000.100000 read(3</data/m.bin>, ""..., 4096) = 4096 <0.100000>
3001 1700000000.100100 read(4</data/w.bin>, ""..., 4096) = 4096 <0.800000>
3001 1700000000.950000 +++ exited with 0 +++
3000 1700000000.995000 +++ exited with 0 +++
EOF
cat > bound/hook.jsonl <<'EOF'
{"ts": 1700000000.000150, "pid": 3000, "event": "phase_begin", "phase": "train"}
{"ts": 1700000000.990150, "pid": 3000, "event": "phase_end", "phase": "train"}
EOF
"$niorep" build bound -o bound.html --bootstraps 0 2>build.err || fail "build bound: exit $?: $(cat build.err)"
[ "$(cell bound.html phases.0.main_io_share)" = "10.1%" ] || fail "main process in I/O: $(cell bound.html phases.0.main_io_share)"
[ "$(cell bound.html phases.0.io_share)" = "0.91" ] || fail "processes in I/O: $(cell bound.html phases.0.io_share)"
grep -q '<th[^>]*>main process in I/O</th>' bound.html || fail "no column 'main process in I/O'"
grep -q 'I/O time / wall' bound.html && fail "the summed I/O time over wall is still shown as a share of time"
"$niorep" summary .niorep/bound.nio --bootstraps 0 > bound.txt || fail "summary bound"
grep -q '^phase .* main in io  procs in io$' bound.txt || fail "summary header: $(grep '^phase' bound.txt)"
grep -q '^train .* 0\.900  *10\.1%  *0\.909$' bound.txt || fail "summary train row: $(grep '^train' bound.txt)"
grep -q 'nan' bound.txt && fail "summary prints nan: $(grep nan bound.txt)"
ok "the main process's blocked share is the headline, the summed I/O time a ratio"

# The same run traced without -T: data_bound cannot look, and says so in the
# summary and the report instead of staying as silent as a rule that found
# nothing (docs/findings.md, "Outcomes").
mkdir -p bound_no_t
sed 's/ <[0-9.]*>$//' bound/strace.log > bound_no_t/strace.log
cp bound/hook.jsonl bound_no_t/
"$niorep" build bound_no_t -o bound_no_t.html --bootstraps 0 2>build.err || fail "build bound_no_t: exit $?: $(cat build.err)"
"$niorep" summary .niorep/bound_no_t.nio --bootstraps 0 > bound_no_t.txt || fail "summary bound_no_t"
grep -q '^  data_bound: not applicable: no call has a duration (trace with -T)$' bound_no_t.txt \
    || fail "summary: data_bound's outcome without -T: $(grep data_bound bound_no_t.txt)"
grep -q '^  data_bound: not fired: .* = 10\.1% (fires above 30%)$' bound.txt \
    || fail "summary: data_bound of the -T run looked: $(grep data_bound bound.txt)"
grep -q '<td>data_bound</td><td>not applicable</td>' bound_no_t.html || fail "report: no rules row for data_bound"
grep -q '<td>no call has a duration (trace with -T)</td>' bound_no_t.html || fail "report: data_bound's reason"
grep -q '<td>data_bound</td><td>not fired</td>' bound.html || fail "report: data_bound looked in the -T run"
# the overview's findings cell counts beside the fired rules those that
# could not look: without -T, data_bound joins the six that lack inputs (loader_start since session 63)
"$niorep" build bound bound_no_t -o bound_both.html --bootstraps 0 2>build.err || fail "build bound bound_no_t: exit $?: $(cat build.err)"
grep -q '<tr><td>bound</td>\(<td[^>]*>[^<]*</td>\)*<td class="num">1 (5 rules n/a)</td></tr>' bound_both.html \
    || fail "overview: the findings cell of bound: $(grep -o '<td class="num">[^<]*n/a)</td>' bound_both.html)"
grep -q '<tr><td>bound_no_t</td>\(<td[^>]*>[^<]*</td>\)*<td class="num">0 (7 rules n/a)</td></tr>' bound_both.html \
    || fail "overview: the findings cell of bound_no_t: $(grep -o '<td class="num">[^<]*n/a)</td>' bound_both.html)"
ok "a rule that cannot look says why, in the summary and the report"

# 2. No cache split found is not "unimodal": 197 reads of 10 us and a slow
# mode of 3 reads of 2 ms (1.5%, under the split's 2% gate, and setting the
# p99) find no split, and the report says a mode that small is not tested
# for; the run of two reads (section 1) has too few to look.
mkdir -p tail
{
    echo '4000 1700000000.000100 openat(AT_FDCWD, "/data/t.bin", O_RDONLY) = 3</data/t.bin> <0.000010>'
    for i in $(seq 1 200); do
        dur=0.000010
        [ $((i % 67)) -eq 0 ] && dur=0.002000
        printf '4000 1700000000.%06d read(3</data/t.bin>, ""..., 4096) = 4096 <%s>\n' $((1000 + i * 3000)) $dur
    done
    echo '4000 1700000000.700000 +++ exited with 0 +++'
} > tail/strace.log
"$niorep" build tail -o tail.html --bootstraps 0 2>build.err || fail "build tail: exit $?: $(cat build.err)"
grep -qi 'unimodal' tail.html && fail "a failed split detection is called unimodal"
grep -q 'No cache-hit/miss split found. The test looks for two modes of at least 2.0% of reads each: a slower mode of fewer reads is not tested for' tail.html \
    || fail "no note that a slow mode under 2% of reads is not tested for"
grep -q 'Too few reads (2, fewer than 100) to look for a cache-hit/miss split.' bound.html \
    || fail "two reads: no note that they are too few"
"$niorep" summary .niorep/tail.nio --bootstraps 0 | grep -q '^cache split: none found (each mode must hold 2% of reads or more' \
    || fail "summary: no line on the split not found"
ok "no split found is said as such, never unimodal"

# 3. A power-law fit that its goodness of fit rejects (p <= 0.1, Clauset,
# Shalizi and Newman) is said to be rejected, in the report, the summary and
# figures.json, and figure 3 draws no line for it (its caption says so): 36
# files of 4 KiB and four larger ones (p = 0 of 50 bootstraps). Pareto-like
# sizes give a plausible fit, worded as docs/statistics.md advises.
# The strace log of a run $1 that reads one file of each size $2...
sizes_run() {
    local d=$1 t=100 i=0 s
    shift
    mkdir -p "$d"
    for s in "$@"; do
        printf '5000 1700000000.%06d openat(AT_FDCWD, "/data/f%d.bin", O_RDONLY) = 3</data/f%d.bin> <0.000010>\n' $t $i $i
        printf '5000 1700000000.%06d read(3</data/f%d.bin>, ""..., %d) = %d <0.000020>\n' $((t + 100)) $i $s $s
        printf '5000 1700000000.%06d close(3</data/f%d.bin>) = 0 <0.000005>\n' $((t + 200)) $i
        t=$((t + 300)) i=$((i + 1))
    done > "$d/strace.log"
    printf '5000 1700000000.%06d +++ exited with 0 +++\n' $t >> "$d/strace.log"
}
sizes_run step $(for i in $(seq 36); do echo 4096; done) 40000 50000 60000 1000000
sizes_run pareto $(/usr/bin/python3 -c 'print(*(int(4096 * (40 / (i + 0.5)) ** (1 / 1.2)) for i in range(40)))')
"$niorep" build step -o step.html --figures step-figs --format svg --bootstraps 50 2>build.err \
    || fail "build step: exit $?: $(cat build.err)"
grep -q 'The power law is rejected: p = 0.00, at most 0.1' step.html || fail "no sentence that the power law is rejected"
grep -q 'the power law fitted from xmin is rejected (p &le; 0.1): no line' step.html || fail "figure 3's caption promises a fit"
/usr/bin/python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["figures"][2]["data"]["series"][0]["fit"]
assert f["rejected"] is True and f["p_value"] == 0, f' step-figs/figures.json || fail "figures.json: the fit is not marked rejected"
"$niorep" summary .niorep/step.nio --bootstraps 50 | grep -q '^  the power law is rejected (p <= 0.1' \
    || fail "summary: no line that the power law is rejected"
"$niorep" build pareto -o pareto.html --bootstraps 50 2>build.err || fail "build pareto: exit $?: $(cat build.err)"
grep -q 'A power law is plausible (p = 1, above 0.1), but a lognormal fits the tail as well' pareto.html \
    || fail "no sentence that the power law is plausible"
grep -q 'is rejected' pareto.html && fail "a plausible fit is called rejected"
"$niorep" build pareto -o pareto0.html --bootstraps 0 2>/dev/null || fail "build pareto --bootstraps 0"
grep -q 'Goodness of fit not tested (--bootstraps 0)' pareto0.html || fail "an untested fit is not said to be untested"
ok "a rejected power law is said to be, and drawn without a line"

# 4. The top 10% of 22 files are the top 3 (ceil(n / 10): 13.6% of them):
# the report names the count where it is not exactly the share; 40 files
# have an exact top 10% (4), and their top 1% is 1 file (2.5%).
sizes_run files22 $(seq 1000 1000 22000)
"$niorep" build files22 pareto -o top.html --bootstraps 0 2>build.err || fail "build files22 pareto: exit $?: $(cat build.err)"
grep -q 'share of bytes from the top 10% of files, rounded up: 3 of 22 (13.6%)' top.html \
    || fail "the top 10% of 22 files is not said to be 3 of them"
grep -q 'share of bytes from the top 10% of files</td>' top.html || fail "40 files: the exact top 10% has a note"
grep -q 'share of bytes from the top 1% of files, rounded up: 1 of 40 (2.5%)' top.html || fail "40 files: the top 1%"
grep -q '<th class="num" scope="col">top-10% share (files)</th>' top.html || fail "overview: the top-10% column's head"
grep -q '<td class="num">[0-9.]*% (3 of 22)</td>' top.html || fail "overview: the top-10% share of 22 files without its count"
"$niorep" summary .niorep/files22.nio --bootstraps 0 | grep -q 'top 1% (1 file) [0-9.]*%, top 10% (3 files) [0-9.]*%' \
    || fail "summary: the top shares without their counts"
ok "the top 10% of few files is said with its count"

# 5. Each run's figures are named for a screen reader with the run and its
# key number (the caption is the same in every run); a hook that ends 405 us
# before strace's last event (the close at 900 us, ending 5 us later) ends
# "405 µs before" it, not "-405 µs" after; it starts 99.9 us after (the
# hook's stamp is a double).
mkdir -p skew
cat > skew/strace.log <<'EOF'
6000 1700000000.000100 openat(AT_FDCWD, "/data/s.bin", O_RDONLY) = 3</data/s.bin> <0.000010>
6000 1700000000.000300 read(3</data/s.bin>, ""..., 4096) = 4096 <0.000020>
6000 1700000000.000900 close(3</data/s.bin>) = 0 <0.000005>
6000 1700000000.001000 +++ exited with 0 +++
EOF
cat > skew/hook.jsonl <<'EOF'
{"ts": 1700000000.000200, "pid": 6000, "event": "phase_begin", "phase": "train"}
{"ts": 1700000000.000500, "pid": 6000, "event": "phase_end", "phase": "train"}
EOF
"$niorep" build skew -o skew.html --bootstraps 0 2>build.err || fail "build skew: exit $?: $(cat build.err)"
grep -q 'data-nr-key="fidelity.skew_end_s" data-nr-value="[^"]*">405 &micro;s before<' skew.html \
    || fail "the hook's end before strace's: $(grep -o 'skew_end_s[^<]*' skew.html)"
grep -q 'data-nr-key="fidelity.skew_start_s" data-nr-value="[^"]*">99.9 &micro;s after<' skew.html \
    || fail "the hook's start after strace's: $(grep -o 'skew_start_s[^<]*' skew.html)"
grep -q 'aria-label="Lorenz curve[^"]*\. Run files22: Gini [0-9.]*; the top 3 of 22 files hold [0-9.]*% of the bytes\."' top.html \
    || fail "figure 2 of files22 is not named with its run and Gini"
grep -q 'aria-label="Read latency[^"]*\. Run pareto: reads of job files: p50 20 &micro;s, p99 20 &micro;s\."' top.html \
    || fail "figure 4 of pareto is not named with its run and p99"
[ "$(grep -o 'aria-label="[^"]*"' top.html | sort | uniq -d | wc -l)" = 0 ] || fail "two figures have the same aria-label"
ok "figures named with their run and key number; an offset before says before"

# 6. Numbers that do not exist print as "-" (summary) or "n/a" (report),
# never "nan": a -t log (stamps of whole seconds) with -T gives no share of
# wall time, since the wall time is known to within a second only (its one
# process spent 9 ms in I/O within a "wall time" of 2 ms: 4.03 before); a
# -tt log without -T gives no I/O time at all, not 0 s.
mkdir -p secs nodur
cat > secs/strace.log <<'EOF'
7000  19:16:08 openat(AT_FDCWD, "/data/a.bin", O_RDONLY) = 3</data/a.bin> <0.000500>
7000  19:16:08 read(3</data/a.bin>, ""..., 4096) = 4096 <0.008000>
7000  19:16:08 close(3</data/a.bin>) = 0 <0.000500>
7000  19:16:08 +++ exited with 0 +++
EOF
cat > nodur/strace.log <<'EOF'
7100  19:16:08.000100 openat(AT_FDCWD, "/data/b.bin", O_RDONLY) = 3</data/b.bin>
7100  19:16:08.000200 read(3</data/b.bin>, ""..., 4096) = 4096
7100  19:16:08.000900 close(3</data/b.bin>) = 0
7100  19:16:08.001000 +++ exited with 0 +++
EOF
"$niorep" build secs nodur -o coarse.html --bootstraps 0 2>build.err || fail "build secs nodur: exit $?: $(cat build.err)"
"$niorep" summary .niorep/secs.nio --bootstraps 0 > secs.txt || fail "summary secs"
"$niorep" summary .niorep/nodur.nio --bootstraps 0 > nodur.txt || fail "summary nodur"
grep -q 'nan' secs.txt nodur.txt && fail "summary prints nan: $(grep nan secs.txt nodur.txt)"
grep -q '^unphased .*  -  *-$' secs.txt || fail "-t: a share of wall time: $(grep '^unphased' secs.txt)"
grep -q '^shares of wall time unavailable: the stamps resolve only to whole seconds' secs.txt \
    || fail "-t: no note on the stamps"
grep -q '(whole-second stamps: known to within 1 s)' secs.txt || fail "-t: the duration without its precision"
for run in secs:true nodur:false; do
    "$niorep" summary ".niorep/${run%:*}.nio" --bootstraps 0 --json |
        python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["fidelity"]["whole_second_stamps"] != (sys.argv[1] == "true"))' "${run#*:}" \
        || fail "summary --json: fidelity.whole_second_stamps of ${run%:*} is not ${run#*:}"
done
grep -q '^unphased .*  -  *-  *-$' nodur.txt || fail "no -T: an I/O time or share: $(grep '^unphased' nodur.txt)"
grep -q 'Shares of wall time unavailable: the trace&rsquo;s timestamps\|Shares of wall time unavailable: the trace.s timestamps resolve only to whole seconds' coarse.html \
    || fail "report: no note on the whole-second stamps"
[ "$(grep -o 'data-nr-key="phases.0.io_share" data-nr-value="[^"]*">[^<]*<' coarse.html | head -1)" = \
  'data-nr-key="phases.0.io_share" data-nr-value="null">n/a<' ] || fail "report, -t: a share of wall time"
grep -q '>nan<\|>-nan<' coarse.html && fail "report prints nan"
grep -q 'seconds (strace -t): the bins are whole seconds, and the write bursts have no duration' coarse.html \
    || fail "report, -t: the timeline does not say its bins are whole seconds"
ok "no number that does not exist is printed, nor a share of wall time from whole seconds"

# 6b. I/O through io_uring is invisible to strace, as mmap's: noted where
# the mmap calls are (a raw io_uring read of 64 KiB showed as 0 B without a
# word: review 47)
mkdir -p uring
cat > uring/strace.log <<'EOF'
7200  1700000000.000100 io_uring_setup(8, {flags=0, sq_entries=8, cq_entries=16}) = 3<anon_inode:[io_uring]> <0.000010>
7200  1700000000.000150 openat(AT_FDCWD, "/data/u.bin", O_RDONLY) = 4</data/u.bin> <0.000010>
7200  1700000000.000200 io_uring_enter(3<anon_inode:[io_uring]>, 4, 4, IORING_ENTER_GETEVENTS, NULL, 8) = 4 <0.000050>
7200  1700000000.000300 +++ exited with 0 +++
EOF
"$niorep" ingest uring -o uring.nio 2>/dev/null || fail "ingest uring"
"$niorep" summary uring.nio --bootstraps 0 | grep -q '^note: 2 io_uring calls: I/O submitted through io_uring is invisible to strace$' \
    || fail "no note on io_uring in the summary"
"$niorep" summary uring.nio --bootstraps 0 --json |
    python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["fidelity"]["io_uring_calls"] != 2)' \
    || fail "summary --json: fidelity.io_uring_calls is not 2"
ok "io_uring calls noted"

# 6c. Notes are no skipped lines: a run whose one diagnostic is a call
# never resumed says that no line was skipped, and shows the note in a
# table of notes (one "lines skipped" table held both, under "0": review 46)
mkdir -p noted/r
cat > noted/r/strace.log <<'EOF'
7300  1700000000.000100 openat(AT_FDCWD, "/data/n.bin", O_RDONLY) = 3</data/n.bin> <0.000010>
7300  1700000000.000200 read(3</data/n.bin>,  <unfinished ...>
EOF
"$niorep" build noted -o noted.html --bootstraps 0 2>/dev/null || fail "build noted"
grep -q 'No line was skipped: every line of the logs was understood.' noted.html || fail "a note counted as a skipped line"
grep -q 'Notes on lines kept, and on the run, by reason, with examples' noted.html || fail "no table of notes"
grep -q 'Lines skipped, by reason' noted.html && fail "a table of skipped lines without a skipped line"
grep -q '>never_resumed<' noted.html || fail "the note never_resumed is not shown"
"$niorep" info noted/.niorep/r.nio | grep -q '^  never_resumed: 1 (note)$' || fail "info does not mark the note"
# summary --json counts it as a note, not a skipped line (schema 10)
"$niorep" summary --json noted/.niorep/r.nio | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)["diagnostics"]
assert (d["skipped_total"], d["notes_total"], d["lines_skipped"]) == (0, 1, 0), d' \
    || fail "summary --json counts the note as a skipped line"
# its example is the call as its line gave it, not its name alone (review 48)
"$niorep" info noted/.niorep/r.nio | grep -qF '    strace.log:2: read(3</data/n.bin>,  <unfinished ...>' \
    || fail "the example of never_resumed: $("$niorep" info noted/.niorep/r.nio | grep -A1 never_resumed)"
ok "notes apart from skipped lines"

# 7. One of a thing is one, not "1 calls": a run of one process that reads
# one file once and writes nothing.
sizes_run single 4096
"$niorep" ingest single -o single.nio 2>ingest.err || fail "ingest single"
grep -q '^niorep: single.nio: 4 lines, 3 events, 1 file, 1 process, 0 lines skipped$' ingest.err \
    || fail "ingest: $(cat ingest.err)"
"$niorep" summary single.nio --bootstraps 0 > single.txt || fail "summary single"
grep -q '^run single.nio: [0-9.]* s, 1 process, 3 events$' single.txt || fail "summary: $(head -1 single.txt)"
grep -q '^regular files: read 4.0 KiB in 1 call from 1 file; wrote 0 B in 0 calls to 0 files$' single.txt \
    || fail "summary: $(grep '^regular files' single.txt)"
grep -q '[^0-9.,]1 \(calls\|files\|processes\|events\|bursts\|marks\)\b' single.txt \
    && fail "summary: a plural after 1: $(grep '[^0-9.,]1 \(calls\|files\|processes\|events\)\b' single.txt)"
ok "one of a thing is said in the singular"

# 8. Names from the trace reach a terminal escaped: a phase named with an
# escape sequence and a newline, and a mark's control byte, would recolour
# the terminal and break the phase table (review 53); they print as \xNN,
# as info prints its examples. A long UTF-8 name is cut at a character,
# not inside one.
mkdir -p ctl
cat > ctl/strace.log <<'EOF'
7000 1700000000.000100 openat(AT_FDCWD, "/data/c.bin", O_RDONLY) = 3</data/c.bin> <0.000010>
7000 1700000000.000300 read(3</data/c.bin>, ""..., 4096) = 4096 <0.000020>
7000 1700000000.000600 read(3</data/c.bin>, ""..., 4096) = 4096 <0.000020>
7000 1700000000.000900 close(3</data/c.bin>) = 0 <0.000005>
7000 1700000000.001000 +++ exited with 0 +++
EOF
cat > ctl/hook.jsonl <<'EOF'
{"ts": 1700000000.000200, "pid": 7000, "event": "phase_begin", "phase": "\u001b[31mred\nline", "depth": 0}
{"ts": 1700000000.000400, "pid": 7000, "event": "phase_end", "phase": "\u001b[31mred\nline", "depth": 0}
{"ts": 1700000000.000500, "pid": 7000, "event": "phase_begin", "phase": "préparation_données", "depth": 0}
{"ts": 1700000000.000700, "pid": 7000, "event": "phase_end", "phase": "préparation_données", "depth": 0}
{"ts": 1700000000.000800, "pid": 7000, "event": "mark", "name": "epoch\u0007end"}
EOF
"$niorep" ingest ctl -o ctl.nio 2>ingest.err || fail "ingest ctl: $(cat ingest.err)"
"$niorep" summary ctl.nio --bootstraps 0 > ctl.txt || fail "summary ctl"
LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' ctl.txt && fail "summary prints control bytes: $(cat -v ctl.txt | grep -n '\^')"
grep -qF '\x1b[31mred\x0al ' ctl.txt || fail "the escaped phase name is not in the table: $(grep -n red ctl.txt)"
grep -q '^line' ctl.txt && fail "a newline in a phase name broke the table"
grep -q '^préparation_donn ' ctl.txt || fail "a UTF-8 name is not cut at 16 characters: $(grep -n '^pr' ctl.txt)"
grep -qF 'epoch\x07end 1' ctl.txt || fail "the mark's name is not escaped: $(grep -n epoch ctl.txt | cat -v)"
ok "names from the trace print escaped"

# 9. Blank names in a hook file another tool wrote ("", a space, a tab,
# a control and a zero-width space) are kept as "(unnamed)" and noted,
# one per line, as hook_empty_name with file and line; "" begun and " "
# ended pair. No output shows a blank name: info, summary, summary --json,
# the report (docs/hook-format.md, "Names"; session 54's first binary
# stored them as written and paired neither end).
mkdir -p blank
cat > blank/strace.log <<'EOF'
7100 1700000000.000100 openat(AT_FDCWD, "/data/c.bin", O_RDONLY) = 3</data/c.bin> <0.000010>
7100 1700000000.000300 read(3</data/c.bin>, ""..., 4096) = 4096 <0.000020>
7100 1700000000.000600 read(3</data/c.bin>, ""..., 4096) = 4096 <0.000020>
7100 1700000000.000750 read(3</data/c.bin>, ""..., 4096) = 4096 <0.000020>
7100 1700000000.000900 close(3</data/c.bin>) = 0 <0.000005>
7100 1700000000.001000 +++ exited with 0 +++
EOF
cat > blank/hook.jsonl <<'EOF'
{"ts": 1700000000.000200, "pid": 7100, "event": "phase_begin", "phase": "train", "depth": 0}
{"ts": 1700000000.000250, "pid": 7100, "event": "phase_begin", "phase": "", "depth": 1}
{"ts": 1700000000.000400, "pid": 7100, "event": "phase_end", "phase": " ", "depth": 1}
{"ts": 1700000000.000500, "pid": 7100, "event": "phase_begin", "phase": "\t\u0001\u200b", "depth": 1}
{"ts": 1700000000.000700, "pid": 7100, "event": "phase_end", "phase": "\t\u0001\u200b", "depth": 1}
{"ts": 1700000000.000800, "pid": 7100, "event": "phase_end", "phase": "train", "depth": 0}
{"ts": 1700000000.000850, "pid": 7100, "event": "mark", "name": ""}
EOF
"$niorep" ingest blank -o blank.nio 2>ingest.err || fail "ingest blank: $(cat ingest.err)"
grep -q ' 5 hook diagnostics' ingest.err || fail "ingest's hook diagnostics: $(cat ingest.err)"
"$niorep" info blank.nio > blank_info.txt || fail "info blank"
grep -q '^  hook_empty_name: 5 (note)$' blank_info.txt \
    || fail "info: no count of hook_empty_name: $(grep -A4 '^diagnostics' blank_info.txt)"
grep -qF '    hook.jsonl:2: {"ts": 1700000000.000250, "pid": 7100, "event": "phase_begin", "phase": ""' blank_info.txt \
    || fail "info: hook_empty_name's first example is not hook.jsonl:2"
grep -q 'unmatched_phase_end\|out_of_order' blank_info.txt \
    && fail "the blank ends did not pair: $(grep -A9 '^diagnostics' blank_info.txt)"
"$niorep" summary blank.nio --json --bootstraps 0 > blank.json || fail "summary --json blank"
python3 - blank.json <<'EOF' || fail "summary --json: a blank name, or no (unnamed) phase"
import json, sys
names = []
def walk(x, key=None):
    if isinstance(x, dict):
        for k, v in x.items():
            walk(v, k)
    elif isinstance(x, list):
        for v in x:
            walk(v, key)
    elif key in ("name", "phase") and isinstance(x, str):
        names.append(x)
walk(json.load(open(sys.argv[1])))
blank = [n for n in names if not n.strip(" \t\n\r\x01\u200b")]
if blank:
    print("blank names:", blank)
sys.exit(1 if blank or "(unnamed)" not in names else 0)
EOF
"$niorep" summary blank.nio --bootstraps 0 > blank.txt || fail "summary blank"
grep -q '^(unnamed)  .* 8192 ' blank.txt || fail "summary: no (unnamed) row of 8192 bytes: $(sed -n '/^phase/,/^$/p' blank.txt)"
grep -q '^train  .* 4096 ' blank.txt || fail "summary: train holds the unnamed phases' reads: $(grep '^train' blank.txt)"
grep -q '^  at [0-9.]* s: (unnamed) (' blank.txt || fail "summary: the blank mark: $(grep -A1 mark blank.txt)"
"$niorep" build blank -o blank.html --bootstraps 0 2>build.err || fail "build blank: exit $?: $(cat build.err)"
grep -q '<tr><td>(unnamed)</td><td class="num">2</td>' blank.html || fail "report: no (unnamed) row in the phase table"
grep -q '<tr><td>(unnamed)</td><td class="num">[^<]*</td><td>unphased</td>' blank.html || fail "report: the blank mark"
grep -q '<td>hook_empty_name</td><td class="num">5</td><td class="path">hook.jsonl:2</td>' blank.html \
    || fail "report: no note hook_empty_name"
ok "blank phase and mark names are kept as (unnamed) and noted"

# Waits for data in 18 phases of 10 ms, phase k one wait of k + 1 ms: the
# summary and the report list the 16 with the most time waiting (p02 to
# p17) and count the other two, 3 ms in all (docs/definitions.md, "Waits
# for data").
mkdir -p waits
{
    echo '5000 1700000000.000000 openat(AT_FDCWD, "/data/x", O_RDONLY) = 3</data/x> <0.000010>'
    echo '5000 1700000000.200000 read(3</data/x>, ""..., 10) = 10 <0.000010>'
} > waits/strace.log
for k in $(seq 0 17); do
    printf '{"ts": 1700000000.%06d, "pid": 5000, "event": "phase_begin", "phase": "p%02d"}\n' $((k * 10000 + 1)) "$k"
    printf '{"ts": 1700000000.%06d, "pid": 5000, "event": "wait", "what": "batch", "dur": 0.%03d}\n' $((k * 10000 + 2)) $((k + 1))
    printf '{"ts": 1700000000.%06d, "pid": 5000, "event": "phase_end", "phase": "p%02d"}\n' $((k * 10000 + 9999)) "$k"
done > waits/hook.jsonl
"$niorep" build waits -o waits.html --bootstraps 0 2>build.err || fail "build waits: exit $?: $(cat build.err)"
"$niorep" summary .niorep/waits.nio --bootstraps 0 > waits.txt || fail "summary waits"
[ "$(grep -c '^1 .*  p[01][0-9]$' waits.txt)" = 16 ] || fail "summary: not 16 rows of waits: $(grep -A20 '^waits' waits.txt)"
grep -q '  p0[01]$' waits.txt && fail "summary lists a phase of the least time waiting"
grep -q '^\.\.\. 2 more phases waited 0\.003 s in all (summary --json lists every phase)$' waits.txt \
    || fail "summary: the phases not listed: $(grep more waits.txt)"
[ "$(grep -o 'data-nr-key="phases\.[0-9]*\.waits\.count"' waits.html | wc -l)" = 16 ] || fail "report: not 16 rows of waits"
grep -q '2 more phases waited 3 ms in all: niorep summary --json lists every phase\.' waits.html \
    || fail "report: no note of the phases not listed"
ok "the waits' tables list the 16 phases that waited most and count the rest"

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all passed"
