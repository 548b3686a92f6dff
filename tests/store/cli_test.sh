#!/usr/bin/env bash
# CLI test of `niorep info` and `niorep export` on the golden store: outputs
# are compared with tests/store/expected/; exit statuses and messages of
# damaged stores, unknown tables and usage errors are checked.
# usage: cli_test.sh NIOREP SRC_DIR [--update-golden]
set -u
niorep=$(realpath "$1")
src=$(realpath "$2")
update=${3:-}
expected=$src/expected
work=$(mktemp -d /tmp/nr_store_cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$src/golden/v1.nio" "$work/v1.nio"
cp "$src/golden/v2.nio" "$work/v2.nio"
cp "$src/golden/v3.nio" "$work/v3.nio"
cd "$work" || exit 1
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# compare NAME: checks $work/NAME against $expected/NAME (or refreshes it).
compare() {
    if [ "$update" = "--update-golden" ]; then
        cp "$1" "$expected/$1"
    elif ! cmp -s "$1" "$expected/$1"; then
        fail "$1 differs from $expected/$1"
        diff -u "$expected/$1" "$1" | head -20 >&2
    fi
}

# expect_status WANT CMD...: runs CMD, checks its exit status.
expect_status() {
    local want=$1
    shift
    "$@" >out.txt 2>err.txt
    local got=$?
    [ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(cat err.txt)"
}

expect_status 0 "$niorep" info v1.nio
mv out.txt info_v1.txt
compare info_v1.txt

for table in meta diagnostics files extremes empty events; do
    for fmt in csv jsonl; do
        expect_status 0 "$niorep" export v1.nio --table "$table" --format "$fmt"
        mv out.txt "export_$table.$fmt"
        compare "export_$table.$fmt"
    done
done

# A later format version V holds version 1's tables (plus its own): its info
# matches info_vV.txt and every export of those tables matches v1.nio's byte
# for byte.
check_as_v1() {
    local v=$1
    expect_status 0 "$niorep" info "v$v.nio"
    mv out.txt "info_v$v.txt"
    compare "info_v$v.txt"
    for table in meta diagnostics files extremes empty events; do
        for fmt in csv jsonl; do
            expect_status 0 "$niorep" export "v$v.nio" --table "$table" --format "$fmt"
            cmp -s out.txt "export_$table.$fmt" || fail "v$v.nio: export of $table ($fmt) differs from v1.nio's"
        done
    done
}

# Format version 2 holds the same tables (plus "scaled").
check_as_v1 2
expect_status 0 "$niorep" export v2.nio --table scaled --format csv
mv out.txt export_scaled_v2.csv
compare export_scaled_v2.csv

# Format version 3 holds the same tables (plus "keyed"), and "scaled" as v2.
check_as_v1 3
expect_status 0 "$niorep" export v3.nio --table scaled --format csv
cmp -s out.txt export_scaled_v2.csv || fail "v3.nio: export of scaled differs from v2.nio's"
expect_status 0 "$niorep" export v3.nio --table keyed --format csv
mv out.txt export_keyed_v3.csv
compare export_keyed_v3.csv

# -o writes the same bytes as stdout, atomically (no temporary file left).
expect_status 0 "$niorep" export v1.nio -t files -f jsonl -o files.jsonl
cmp -s files.jsonl export_files.jsonl || fail "-o output differs from stdout output"
[ -s out.txt ] && fail "-o also wrote to stdout"
ls ./*.tmp.* >/dev/null 2>&1 && fail "temporary file left behind"

# The JSONL escaping is reversible: decoding it gives the bytes CSV holds.
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 - export_files.csv export_files.jsonl export_extremes.csv export_extremes.jsonl <<'PY' || fail "JSONL strings do not decode to the CSV bytes"
import csv, io, json, sys
def undo(text):  # decoded JSON text -> original bytes
    out, i = bytearray(), 0
    while i < len(text):
        if text.startswith("\\\\", i):
            out += b"\\"; i += 2
        elif text.startswith("\\x", i):
            out.append(int(text[i + 2:i + 4], 16)); i += 4
        else:
            out += text[i].encode("utf-8"); i += 1
    return bytes(out)
for csv_path, jsonl_path in zip(sys.argv[1::2], sys.argv[2::2]):
    rows = list(csv.reader(io.StringIO(open(csv_path, "rb").read().decode("latin-1"), newline="")))
    header, rows = rows[0], rows[1:]
    objs = [json.loads(line) for line in open(jsonl_path, encoding="utf-8")]
    assert len(rows) == len(objs), (csv_path, len(rows), len(objs))
    for row, obj in zip(rows, objs):
        assert list(obj) == header
        for name, cell in zip(header, row):
            value = obj[name]
            want = cell.encode("latin-1")
            got = undo(value) if isinstance(value, str) else str(value).encode()
            assert got == want, (name, got, want)
PY
fi

# Errors: unknown table (1, lists tables), usage (2), damaged store (1, names an offset).
expect_status 1 "$niorep" export v1.nio --table nope
grep -q "no table 'nope'; tables: meta, diagnostics, files, extremes, empty, events, series" err.txt ||
    fail "unknown table message: $(cat err.txt)"
expect_status 2 "$niorep" export v1.nio
expect_status 2 "$niorep" export v1.nio --table meta --format xml
expect_status 2 "$niorep" export v1.nio --table meta --table files
grep -q "one --table a call, got 'meta' and 'files'" err.txt || fail "two tables: $(cat err.txt)"
expect_status 2 "$niorep" info
expect_status 2 "$niorep" info a.nio b.nio
expect_status 0 "$niorep" info --help
expect_status 1 "$niorep" info missing.nio

# Byte 40 lies in the second chunk written: series.k, row group 0 (at 39).
cp v1.nio damaged.nio
printf '\x00\x00\x00\x00' | dd of=damaged.nio bs=1 seek=40 conv=notrunc status=none
expect_status 1 "$niorep" export damaged.nio --table series
grep -q "damaged.nio: offset 39: chunk of table 'series' column 'k' row group 0" err.txt ||
    fail "damaged chunk message: $(cat err.txt)"
# A damaged footer: info fails before printing anything.
cp v1.nio damaged-footer.nio
size=$(stat -c %s damaged-footer.nio)
printf '\xff' | dd of=damaged-footer.nio bs=1 seek=$((size - 30)) conv=notrunc status=none
expect_status 1 "$niorep" info damaged-footer.nio
grep -q "damaged-footer.nio: offset [0-9]*: footer checksum mismatch" err.txt || fail "damaged footer message: $(cat err.txt)"
[ -s out.txt ] && fail "info printed a partial report for a damaged store"
# A damaged chunk that info's description does not read (series.k): info
# --check reads every chunk and fails on it; the whole store passes
# (until session 48 no command checked a whole store, review 48)
expect_status 0 "$niorep" info damaged.nio
expect_status 1 "$niorep" info --check damaged.nio
grep -q "damaged.nio: offset 39: chunk of table 'series' column 'k' row group 0" err.txt ||
    fail "info --check on a damaged chunk: $(cat err.txt)"
[ -s out.txt ] && fail "info --check printed a report for a damaged store"
expect_status 0 "$niorep" info --check v1.nio
grep -q "^check: all [0-9]* chunks read, every checksum verified$" out.txt || fail "info --check: $(tail -1 out.txt)"

# Lost output is an error with its reason: until session 48 info > /dev/full
# exited 0 without a word, export named no reason (review 48)
if [ -w /dev/full ]; then
    "$niorep" info v1.nio >/dev/full 2>err.txt && fail "info > /dev/full exited 0"
    grep -q "info: cannot write to standard output: No space left on device" err.txt || fail "info > /dev/full: $(cat err.txt)"
    "$niorep" export v1.nio --table events >/dev/full 2>err.txt && fail "export > /dev/full exited 0"
    grep -q "export: cannot write to standard output: No space left on device" err.txt || fail "export > /dev/full: $(cat err.txt)"
fi
# -o - is standard output, not a file named '-'
expect_status 0 "$niorep" export v1.nio --table meta -o -
[ -e ./- ] && fail "export -o - wrote a file named '-'"
cmp -s out.txt "$expected/export_meta.csv" || fail "export -o - is not the table on standard output"

# An error is one line, even for a name with a newline (\x0A; review 48)
expect_status 1 "$niorep" export "$(printf 'missing\nx.nio')" --table meta
[ "$(wc -l < err.txt)" = 1 ] && grep -q 'missing\\x0Ax.nio' err.txt || fail "a newline in a name split the error: $(cat err.txt)"

# A fifo named like a store is not a regular file: every reader refuses it
# at once; until session 50 the open waited forever for a writer (review 50)
if mkfifo fifo.nio 2>/dev/null; then
    for cmd in "info fifo.nio" "info --check fifo.nio" "export fifo.nio --table meta" "summary fifo.nio" \
               "merge -q fifo.nio -o m.nio" "figures fifo.nio -o figs" "build fifo.nio -o r.html" \
               "compare fifo.nio v1.nio -o c.html"; do
        # shellcheck disable=SC2086
        expect_status 1 timeout 20 "$niorep" $cmd
        grep -q "^niorep: fifo.nio: not a regular file$" err.txt || fail "$cmd on a fifo: $(cat err.txt)"
    done
fi

# An ingest records its revision in meta (NR_INGEST_REVISION): until
# session 50 only the build cache's .inputs file had it (review 50)
printf '1700000000.000001 read(3, "x", 1) = 1 <0.000010>\n' >one.log
expect_status 0 "$niorep" ingest -q one.log -o one.nio
expect_status 0 "$niorep" export one.nio --table meta
grep -q "^ingest_revision,[0-9][0-9]*$" out.txt || fail "no ingest_revision in meta: $(cat out.txt)"

head -c 1000 v1.nio >truncated.nio
expect_status 1 "$niorep" export truncated.nio --table meta
grep -q "truncated.nio: offset" err.txt || fail "truncated store message: $(cat err.txt)"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "store CLI: all checks passed"
