#!/usr/bin/env bash
# The model's commands on crafted stores, checksums valid (review 50): a
# store made by store_craft from the model's run A (model_fixture) with one
# change. Each must be refused with one line naming the file, or (sums
# near 2^63) give no negative time.
# usage: crafted_test.sh NIOREP STORE_CRAFT MODEL_FIXTURE
set -u
niorep=$(realpath "$1")
craft=$(realpath "$2")
fixture=$(realpath "$3")
work=$(mktemp -d /tmp/nr_store_crafted.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

"$fixture" a.nio || exit 1
# make NAME CHANGE...: NAME.nio is a.nio with CHANGE (store_craft.c)
make() {
    local name=$1
    shift
    "$craft" a.nio "$name.nio" "$@" || fail "store_craft $name: $*"
}

# refused NAME MESSAGE CMD...: niorep CMD exits 1 (within 20 s) with the
# single line "niorep: NAME.nio: MESSAGE" (MESSAGE a grep pattern)
refused() {
    local name=$1 message=$2
    shift 2
    timeout 20 "$niorep" "$@" >out.txt 2>err.txt
    local got=$?
    [ "$got" = 1 ] || fail "'niorep $*' exited $got, expected 1: $(cat err.txt)"
    [ "$(wc -l <err.txt)" = 1 ] && grep -q "^niorep: $name.nio: $message" err.txt ||
        fail "'niorep $*': $(cat err.txt), expected 'niorep: $name.nio: $message'"
}

make copy copy
timeout 20 "$niorep" summary --json copy.nio >copy.json || fail "summary of an unchanged copy"
"$niorep" summary --json a.nio | cmp -s - copy.json || fail "the copy reads otherwise than its original"

# A meta merged_parts beyond the parts the meta describes: until session 50
# each part was looked up, 10^9 of them took minutes (finding 2)
make parts meta merged_parts 1000000000
parts_message="meta merged_parts '1000000000' does not match the store: its meta describes 0 parts"
refused parts "$parts_message" summary parts.nio
refused parts "$parts_message" summary --json parts.nio
refused parts "$parts_message" figures parts.nio -o figs
refused parts "$parts_message" build parts.nio -o r.html
make parts_neg meta merged_parts -5
refused parts_neg "meta merged_parts '-5' does not match the store" summary parts_neg.nio

# Sums of crafted values near 2^62 saturate instead of wrapping: until
# session 50 a phase showed -9223372036 s in I/O (finding 5)
make dur_huge set events dur_ns 3 4611686018427387904
for f in dur_huge; do
    timeout 20 "$niorep" summary --json "$f.nio" >"$f.json" 2>err.txt || fail "summary of $f: $(cat err.txt)"
    /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
bad = [(p["name"], p["io_time_s"]) for p in d["phases"] if p["io_time_s"] < 0]
sys.exit("negative io_time_s: %r" % bad if bad else 0)' "$f.json" || fail "$f: a negative I/O time"
done

# A time, duration or size above 2^62 comes from no trace: refused, naming
# the file (a time near 2^63 overflowed the timeline's sums under UBSan)
make ts_max set events ts_ns 5 9223372036854775807
refused ts_max "an event's ts_ns 9223372036854775807 is out of range" summary --json ts_max.nio

# So does a phase's, a process's, a mark's or a pyio record's time, and a merged part's pid base that
# leaves no room for its pids: until session 57 their differences and sums
# overflowed int64 under UBSan (found by the model fuzz target)
make phase_end set phases end_ns 1 9223372036854775807
refused phase_end "table phases, row 1: end_ns 9223372036854775807 is out of range (expected a time in ns within 2^62 of 0)" \
    summary --json phase_end.nio
make proc_last set processes last_ts_ns 1 9223372036854775807
refused proc_last "table processes, row 1: last_ts_ns 9223372036854775807 is out of range" \
    summary proc_last.nio
make mark_ts set marks ts_ns 1 -9223372036854775808
refused mark_ts "table marks, row 1: ts_ns -9223372036854775808 is out of range" summary --json mark_ts.nio
make pyio_ts set pyio ts_ns 1 9223372036854775807
refused pyio_ts "table pyio, row 1: ts_ns 9223372036854775807 is out of range" summary pyio_ts.nio
"$craft" a.nio base1.nio meta part.0.pid_base 9223372036854775807 || fail "store_craft base1"
"$craft" base1.nio base_huge.nio meta merged_parts 1 || fail "store_craft base_huge"
refused base_huge "meta part.0.pid_base '9223372036854775807' (expected a pid base from 0 to" summary base_huge.nio

# A duration below -1 (none) is no call's: refused, naming the file; until
# session 54 the latency statistics left the call out without a count (the
# lexer wrapped "<10000000000.000000>" into one)
make dur_neg set events dur_ns 3 -8446744073709551616
refused dur_neg "an event's dur_ns -8446744073709551616 is out of range (negative; -1 is none)" summary dur_neg.nio
refused dur_neg "an event's dur_ns -8446744073709551616 is out of range" build dur_neg.nio -o r.html

# Errors about a store's contents name the file: until session 50 the
# model's did not (finding 4)
make ts_str str events ts_ns
make bytes_str str events bytes
refused ts_str "table events: column ts_ns has type str, expected i64" summary ts_str.nio
refused bytes_str "table events: column bytes has type str, expected i64" compare a.nio bytes_str.nio -o c.html

# Tables and columns every store of a run has, and ids that point nowhere:
# until session 50 the model read them as defaults (0 bytes, no latency,
# unphased) with exit 0, while merge refused them (finding 3)
make no_events drop-table events
make no_files drop-table files
make no_procs drop-table processes
make no_phases drop-table phases
make no_meta drop-table meta
make no_bytes drop-col events bytes
make no_dur drop-col events dur_ns
make no_flags drop-col events flags
make no_path drop-col files path
make no_mark_ts drop-col marks ts_ns
make file_missing set events file_id 3 99999
make phase_missing set events phase_id 2 57
make file_dup set files file_id 2 0
for t in events files processes phases meta; do
    n=$(case $t in events) echo no_events ;; files) echo no_files ;; processes) echo no_procs ;;
        phases) echo no_phases ;; meta) echo no_meta ;; esac)
    refused "$n" "the store has no table $t, which niorep has always written" summary "$n.nio"
done
refused no_bytes "table events lacks column bytes, which niorep has always written in it" summary no_bytes.nio
refused no_dur "table events lacks column dur_ns" summary --json no_dur.nio
refused no_flags "table events lacks column flags" build no_flags.nio -o r.html
refused no_path "table files lacks column path" figures no_path.nio -o figs
refused no_bytes "table events lacks column bytes" compare no_bytes.nio a.nio -o c.html
refused no_mark_ts "table marks lacks column ts_ns" summary no_mark_ts.nio
refused file_missing "an event refers to file_id 99999, which table files lacks" summary file_missing.nio
refused phase_missing "an event refers to phase_id 57, which table phases lacks" summary phase_missing.nio
refused file_dup "table files holds file_id 0 twice" summary file_dup.nio
# a pyio or marks row's phase_id that phases lacks: until session 55 the
# model read none of pyio's and showed such a mark as unphased (exit 0),
# while merge refused both
make pyio_phase set pyio phase_id 1 57
make mark_phase set marks phase_id 2 57
pyio_message="table pyio, row 1: phase_id 57, which table phases lacks (expected -1, unphased, or a phase_id of table phases)"
refused pyio_phase "$pyio_message" summary pyio_phase.nio
refused pyio_phase "table pyio, row 1: phase_id 57" build pyio_phase.nio -o r.html
refused mark_phase "table marks, row 1: phase_id 57, which table phases lacks (expected -1, unphased" summary --json mark_phase.nio
refused mark_phase "table marks, row 1: phase_id 57" figures mark_phase.nio -o figs
# an id below -1 (-1 is none): until session 55 the model and merge took
# it for -1 (an unphased call, one of no file)
make phase_neg set events phase_id 2 -5
make file_neg set events file_id 3 -7
make pyio_neg set pyio phase_id 1 -3
make mark_neg set marks phase_id 2 -2
refused phase_neg "an event refers to phase_id -5, which table phases lacks" summary phase_neg.nio
refused file_neg "an event refers to file_id -7, which table files lacks" build file_neg.nio -o r.html
refused pyio_neg "table pyio, row 1: phase_id -3, which table phases lacks" summary pyio_neg.nio
refused mark_neg "table marks, row 1: phase_id -2, which table phases lacks" figures mark_neg.nio -o figs
"$craft" phase_neg.nio neg1r.nio meta manifest.labels.run rn && "$craft" neg1r.nio neg1.nio meta manifest.labels.node n1 &&
    "$craft" a.nio neg2r.nio meta manifest.labels.run rn && "$craft" neg2r.nio neg2.nio meta manifest.labels.node n2 ||
    fail "store_craft of the nodes"
timeout 20 "$niorep" merge -q neg1.nio neg2.nio -o rn.nio >/dev/null 2>err.txt
[ $? = 1 ] && grep -q "neg1.nio: a row refers to phase_id -5, which table phases lacks" err.txt ||
    fail "merge of a node store of phase_id -5: $(cat err.txt)"

# a store without the later marks table is a store of before session 40: read
make no_marks drop-table marks
timeout 20 "$niorep" summary --json no_marks.nio >/dev/null 2>err.txt || fail "a store without marks: $(cat err.txt)"

# A merged store given to merge again is named as one: until session 50
# the advice was to trace it with a node label (finding 6)
make run meta manifest.labels.run r1
"$craft" run.nio n1.nio meta manifest.labels.node n1 && "$craft" run.nio n2.nio meta manifest.labels.node n2 ||
    fail "store_craft of the nodes"
timeout 20 "$niorep" merge -q n1.nio n2.nio -o r1.nio 2>err.txt || fail "merge of two nodes: $(cat err.txt)"
timeout 20 "$niorep" summary r1.nio >/dev/null 2>err.txt || fail "summary of a merged store: $(cat err.txt)"
merged="r1.nio is a merged store of run 'r1' (2 nodes: meta merged_parts), a whole run that cannot be merged again: merge its node stores instead"
for cmd in "r1.nio" "n1.nio r1.nio"; do
    # shellcheck disable=SC2086
    timeout 20 "$niorep" merge -q $cmd -o x.nio >out.txt 2>err.txt
    got=$?
    [ "$got" = 1 ] && [ "$(cat err.txt)" = "niorep: $merged" ] || fail "merge $cmd: exit $got, $(cat err.txt)"
done

# info compares the header's version with meta format_version: until
# session 50 a version byte changed 3 -> 2 was reported with exit 0 (finding 9)
make ver meta format_version 3
timeout 20 "$niorep" info ver.nio >/dev/null 2>err.txt || fail "info of a store of version 3: $(cat err.txt)"
cp ver.nio ver2.nio
printf '\x02' | dd of=ver2.nio bs=1 seek=8 conv=notrunc status=none
refused ver2 "offset 8: the header says format version 2 but meta format_version is '3'" info ver2.nio
refused ver2 "offset 8: the header says format version 2" info --check ver2.nio

# merge keeps a part's niorep_version that is not its own as part.K.*:
# until session 50 it was dropped (finding 14)
"$craft" n1.nio v1.nio meta niorep_version 0.0.9 && "$craft" n2.nio v2.nio meta niorep_version 0.1.0 ||
    fail "store_craft of the versioned nodes"
timeout 20 "$niorep" merge -q v1.nio v2.nio -o vr.nio 2>err.txt || fail "merge of two versions: $(cat err.txt)"
"$niorep" export vr.nio -t meta >meta.csv
grep -qx "part.0.niorep_version,0.0.9" meta.csv && grep -qx "part.1.niorep_version,0.1.0" meta.csv ||
    fail "merge dropped the parts' niorep_version: $(grep version meta.csv | tr '\n' ' ')"
timeout 20 "$niorep" merge -q n1.nio n2.nio -o same.nio 2>err.txt || fail "merge: $(cat err.txt)"
"$niorep" export same.nio -t meta | grep -q "^part\.[0-9]*\.format_version," && fail "equal format versions kept per part"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "crafted stores: all checks passed"
