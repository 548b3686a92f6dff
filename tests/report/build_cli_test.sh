#!/bin/bash
# niorep build / figures on a tiny hand-written traces folder:
# hostile file names and log lines stay text; the store cache is reused while
# the logs are unchanged and refreshed when one changes; two builds are
# byte-identical, whatever --jobs; no path of this machine leaks into the report; usage errors
# exit 2, missing inputs 1; the figure set and figures.json are written.
# usage: build_cli_test.sh NIOREP
set -u
niorep=$(realpath "$1")
. "$(dirname "$0")/checks.sh"

mkdir -p "$tmp/traces/hostile" "$tmp/traces/plain"
cat > "$tmp/traces/hostile/strace.log" <<'EOF'
1000 1700000000.000400 openat(AT_FDCWD, "/data/<script>alert(1)</script>", O_RDONLY) = 4</data/<script>alert(1)</script>> <0.000010>
1000 1700000000.000500 read(4</data/<script>alert(1)</script>>, ""..., 100) = 100 <0.000020>
1000 1700000000.000600 openat(AT_FDCWD, "/data/a&b.bin", O_RDONLY) = 5</data/a&b.bin> <0.000010>
1000 1700000000.000700 read(5</data/a&b.bin>, ""..., 10) = 10 <0.000020>
1000 1700000000.000800 <script>alert(2)</script> is not a strace line
1000 1700000000.000900 +++ exited with 0 +++
EOF
printf '1000 1700000000.000800 \xff\xfe<b>bad bytes</b>\n' >> "$tmp/traces/hostile/strace.log"
cat > "$tmp/traces/plain/strace.log" <<'EOF'
2000 1700000000.000100 openat(AT_FDCWD, "/data/x.bin", O_RDONLY) = 3</data/x.bin> <0.000010>
2000 1700000000.000200 read(3</data/x.bin>, ""..., 4096) = 4096 <0.000020>
2000 1700000000.000300 read(3</data/x.bin>, ""..., 4096) = 4096 <0.000030>
2000 1700000000.000400 close(3</data/x.bin>) = 0 <0.000005>
2000 1700000000.000900 +++ exited with 0 +++
EOF

printf '{"start": 1700000000.0001, "end": 1700000000.0009, "host": {"name": "node7"}}\n' > "$tmp/traces/plain/manifest.json"

cd "$tmp" || exit 1
"$niorep" build traces -o r1.html --bootstraps 0 2>build.err || fail "build exit $?: $(cat build.err)"
# the run facts in reading order: start before end (the meta's own order is by key)
facts=$(grep -o 'start (from the manifest)\|end (from the manifest)' r1.html | tr '\n' ,)
[ "$facts" = "start (from the manifest),end (from the manifest)," ] || fail "run facts start/end: $facts"
# the hostile run's two unknown lines: one reason, named and counted once, two examples
[ "$(grep -o '<td>unknown_line</td>' r1.html | wc -l)" = 1 ] || fail "the reason unknown_line is not in one row"
grep -q 'strace.log:5' r1.html || fail "the second example of unknown_line is missing"
# two files make no power-law fit, and the caption says so instead of promising one
grep -q 'fitted power law' r1.html && fail "a caption promises a power-law fit that was not made"
grep -q 'no power law fitted' r1.html || fail "no caption says the power law was not fitted"
[ -s traces/.niorep/hostile.nio ] && [ -s traces/.niorep/hostile.nio.inputs ] || fail "no cached store in traces/.niorep"
grep -qi '<script' r1.html && fail "markup from the trace reached the report: $(grep -oi '.\{20\}<script.\{20\}' r1.html | head -1)"
grep -q '&lt;script&gt;alert(2)&lt;/script&gt;' r1.html || fail "the hostile log line is not shown as text"
grep -q '\\xFF\\xFE&lt;b&gt;bad bytes' r1.html || fail "non-UTF-8 bytes are not shown as \\xNN"
grep -q "$tmp" r1.html && fail "the report contains the absolute path $tmp"
head -c 15 r1.html | grep -q '<!DOCTYPE html>' || fail "no HTML5 doctype"
[ "$(grep -o 'data-nr-run="[a-z]*"' r1.html | tr '\n' ' ')" = 'data-nr-run="hostile" data-nr-run="plain" ' ] \
    || fail "runs are not the two folders in name order"
grep -q 'data-nr="overview"' r1.html || fail "no overview with two runs"
ok "first build"

stamp=$(stat -c %Y.%N traces/.niorep/plain.nio)
sleep 1
"$niorep" build traces -o r2.html --bootstraps 0 2>reuse.err || fail "second build"
cmp -s r1.html r2.html || fail "two builds of the same inputs differ"
[ "$(stat -c %Y.%N traces/.niorep/plain.nio)" = "$stamp" ] || fail "the cached store was rewritten although the logs did not change"
grep -qx 'niorep: stores of run folders: 0 ingested, 2 reused (inputs unchanged)' reuse.err \
    || fail "the second build does not say that it reused both stores: $(cat reuse.err)"
ok "cache reused, output byte-identical"

# files the ingest does not read (a report written into the run's folder,
# notes) are noted by name and reason (file_not_read; until session 50 in
# no report): a new name ingests the run once, and the report says so;
# their contents and times leave the cache fresh (until session 48 every
# such file was in the fingerprint, and a report kept beside its run
# re-ingested the run at every build)
"$niorep" build traces/plain -o traces/plain/report.html --bootstraps 0 2>reuse.err || fail "build into the run's folder"
grep -qx 'niorep: stores of run folders: 0 ingested, 1 reused (inputs unchanged)' reuse.err \
    || fail "a build into the run's folder did not reuse its store: $(cat reuse.err)"
grep -q '<td>file_not_read</td>' traces/plain/report.html && fail "a note on a file that was not there"
grep -q '<td>entries of the run folder not read (file_not_read below)</td><td[^>]*>0</td>' traces/plain/report.html \
    || fail "the report does not count the entries of the run folder not read"
echo 'todo' > traces/plain/notes.txt
"$niorep" build traces/plain -o traces/plain/report.html --bootstraps 0 2>reuse.err || fail "second build into the run's folder"
grep -qx 'niorep: stores of run folders: 1 ingested, 0 reused (inputs unchanged)' reuse.err \
    || fail "new files in the run's folder left its store, which does not note them: $(cat reuse.err)"
grep -q '<td>entries of the run folder not read (file_not_read below)</td><td[^>]*>2</td>' traces/plain/report.html \
    || fail "the report does not count the 2 entries of the run folder not read"
for f in notes.txt report.html; do
    grep -q "<td class=\"path\">$f</td><td class=\"path\">not an strace log (by its name or its first lines), nor hook.jsonl or manifest.json: not read</td>" traces/plain/report.html \
        || fail "the report does not name $f as not read"
done
"$niorep" info traces/.niorep/plain.nio > info.txt || fail "info of the store that notes them"
grep -qx '  file_not_read: 2 (note)' info.txt || fail "niorep info does not count the entries not read: $(grep -A3 diagnostics info.txt)"
grep -qx '    notes.txt: not an strace log (by its name or its first lines), nor hook.jsonl or manifest.json: not read' info.txt \
    || fail "niorep info does not name notes.txt with its reason"
grep -qx '  files_not_read = 2' info.txt || fail "no meta files_not_read in niorep info"
"$niorep" ingest traces/plain -o plain_direct.nio 2>ingest.err || fail "ingest of the run with notes"
grep -q ', 2 entries of the folder not read (niorep info lists them)$' ingest.err || fail "ingest's line does not count them: $(cat ingest.err)"
cmp -s plain_direct.nio traces/.niorep/plain.nio || fail "the cached store differs from niorep ingest's"
rm plain_direct.nio info.txt ingest.err
echo 'todo, done' > traces/plain/notes.txt
"$niorep" build traces/plain -o traces/plain/report.html --bootstraps 0 2>reuse.err || fail "third build into the run's folder"
grep -qx 'niorep: stores of run folders: 0 ingested, 1 reused (inputs unchanged)' reuse.err \
    || fail "a report and notes rewritten in the run's folder made it stale: $(cat reuse.err)"
rm traces/plain/report.html traces/plain/notes.txt
"$niorep" build traces -o r2.html --bootstraps 0 2>reuse.err || fail "build after the notes went"
grep -qx 'niorep: stores of run folders: 1 ingested, 1 reused (inputs unchanged)' reuse.err \
    || fail "the notes' removal left a store that names them: $(cat reuse.err)"
cmp -s r1.html r2.html || fail "the report after the notes went differs from the first"
# a hidden strace log by its content, not its name (an -ff log of
# "strace -ff -o .trace"), is noted too, in info and the report, and in
# the fingerprint; until session 55 it was passed over without a word
cp traces/plain/strace.log traces/plain/.trace.2000
hidden_why='a hidden file (its name starts with '"'.'"'), an strace log by its first lines: not read (rename it to read it)'
"$niorep" build traces -o hidden.html --bootstraps 0 2>reuse.err || fail "build beside a hidden log"
grep -qx 'niorep: stores of run folders: 1 ingested, 1 reused (inputs unchanged)' reuse.err \
    || fail "a hidden log added left the store that does not note it: $(cat reuse.err)"
grep -qF "<td class=\"path\">.trace.2000</td><td class=\"path\">$hidden_why</td>" hidden.html \
    || fail "the report does not name the hidden log as not read"
"$niorep" info traces/.niorep/plain.nio > info.txt || fail "info of the store that notes the hidden log"
grep -qxF "    .trace.2000: $hidden_why" info.txt || fail "niorep info does not name the hidden log: $(grep -A3 file_not_read info.txt)"
rm traces/plain/.trace.2000 info.txt hidden.html
"$niorep" build traces -o r2.html --bootstraps 0 2>reuse.err || fail "build after the hidden log went"
grep -qx 'niorep: stores of run folders: 1 ingested, 1 reused (inputs unchanged)' reuse.err \
    || fail "the hidden log's removal left a store that names it: $(cat reuse.err)"
cmp -s r1.html r2.html || fail "the report after the hidden log went differs from the first"
stamp=$(stat -c %Y.%N traces/.niorep/plain.nio)
ok "files the ingest does not read noted; their contents leave the cache fresh"

# a temporary store that a killed build left (SIGKILL: nothing removed it)
# is removed by the next build, with a line; one still being written (its
# writer holds its lock) or written in the last ten minutes stays
printf 'partial' > traces/.niorep/plain.nio.tmp.AAAAAA
printf 'partial' > traces/.niorep/plain.nio.tmp.BBBBBB
printf 'partial' > traces/.niorep/plain.nio.tmp.CCCCCC
touch -d '1 hour ago' traces/.niorep/plain.nio.tmp.AAAAAA traces/.niorep/plain.nio.tmp.CCCCCC
flock traces/.niorep/plain.nio.tmp.CCCCCC sleep 30 & holder=$!
sleep 0.2
"$niorep" build traces -o swept.html --bootstraps 0 2>swept.err || fail "build beside orphaned temporary files"
kill $holder 2>/dev/null; wait $holder 2>/dev/null
grep -qx 'niorep: traces/.niorep: removed 1 temporary file that a niorep killed while writing left' swept.err \
    || fail "no line on the orphaned temporary file: $(cat swept.err)"
[ -e traces/.niorep/plain.nio.tmp.AAAAAA ] && fail "an orphaned temporary store was left"
[ -e traces/.niorep/plain.nio.tmp.BBBBBB ] || fail "a temporary file of the last ten minutes was removed"
[ -e traces/.niorep/plain.nio.tmp.CCCCCC ] || fail "a temporary file a process holds was removed"
rm -f traces/.niorep/plain.nio.tmp.*
ok "orphaned temporary files of the cache removed"

# the stores of run folders that are gone are pruned (with their fits,
# figures and fingerprints), once older than ten minutes; those of runs
# still there, hidden or not, other files and a fresh one stay: until
# session 49 the cache only grew
for name in gone .hidden a.nio.b; do
    printf 'x' > "traces/.niorep/$name.nio"
    printf 'x' > "traces/.niorep/$name.nio.inputs"
done
printf 'x' > traces/.niorep/gone.nio.fits-0-1
printf 'x' > traces/.niorep/gone.nio.fig3-0-1
printf 'x' > traces/.niorep/orphan.nio.inputs
printf 'x' > traces/.niorep/README
mkdir -p traces/.hidden traces/a.nio.b
touch -d '1 hour ago' traces/.niorep/*
"$niorep" build traces -o pruned.html --bootstraps 0 2>pruned.err || fail "build beside the stores of gone runs"
grep -qx 'niorep: traces/.niorep: removed the cached store of 1 run folder no longer in traces (gone; 5 files)' pruned.err \
    || fail "no line on the pruned stores: $(cat pruned.err)"
ls traces/.niorep/gone.* traces/.niorep/orphan.* 2>/dev/null && fail "stores of gone runs were left"
for kept in .hidden.nio a.nio.b.nio a.nio.b.nio.inputs README plain.nio plain.nio.inputs hostile.nio; do
    [ -e "traces/.niorep/$kept" ] || fail "$kept was pruned"
done
rm -r traces/.hidden traces/a.nio.b traces/.niorep/.hidden.* traces/.niorep/a.nio.b.* traces/.niorep/README
printf 'x' > traces/.niorep/fresh.nio
"$niorep" build traces -o pruned.html --bootstraps 0 2>pruned.err || fail "build beside a fresh store of a gone run"
[ -e traces/.niorep/fresh.nio ] || fail "a store of the last ten minutes was pruned"
rm traces/.niorep/fresh.*
ok "the stores of gone run folders pruned"

# merged/ holds the stores merged from node stores, named by the run's
# label: one whose fingerprint names node stores of which none is left is
# pruned (store, fingerprint, fits, figures), once older than ten minutes;
# one with a part left, one without a fingerprint, the store of label
# "gone.nio" and other files stay; until session 50 merged/ only grew
mkdir -p nodes/n1 nodes/n2 nodes/other
for n in n1 n2; do
    cp traces/plain/strace.log "nodes/$n/"
    printf '{"labels": {"run": "R", "node": "%s"}}\n' "$n" > "nodes/$n/manifest.json"
done
cp traces/plain/strace.log nodes/other/
"$niorep" build nodes -o nodes1.html --bootstraps 0 2>nodes.err || fail "build of node run folders: $(cat nodes.err)"
[ -e nodes/.niorep/merged/R.nio ] && [ -e nodes/.niorep/merged/R.nio.inputs ] || fail "no merged store of R: $(ls -R nodes/.niorep)"
m=nodes/.niorep/merged
printf 'niorep 0.1.0 merge 5 revision 1\nx1.nio\t10\t1.0\t1.0\nx\t2.nio\t10\t1.0\t1.0\nstore 1 2\n' > $m/gone.nio.inputs
printf 'niorep 0.1.0 merge 5 revision 1\nx1.nio\t10\t1.0\t1.0\nn1.nio\t10\t1.0\t1.0\nstore 1 2\n' > $m/half.nio.inputs
for f in gone.nio gone.nio.fits-0-1 gone.nio.fig2-0-1 gone.nio.nio half.nio nofp.nio README; do printf 'x' > "$m/$f"; done
touch -d '1 hour ago' $m/*
"$niorep" build nodes -o nodes2.html --bootstraps 0 2>nodes.err || fail "build beside merged stores of gone runs"
grep -qx 'niorep: nodes/.niorep/merged: removed the merged store of 1 run whose node stores are gone (gone; 4 files)' nodes.err \
    || fail "no line on the pruned merged store: $(cat nodes.err)"
ls $m/gone.nio $m/gone.nio.* 2>/dev/null | grep -vx "$m/gone.nio.nio" && fail "files of the merged store of a gone run were left"
for kept in gone.nio.nio half.nio half.nio.inputs nofp.nio README R.nio R.nio.inputs; do
    [ -e "$m/$kept" ] || fail "merged/$kept was pruned"
done
cmp -s nodes1.html nodes2.html || fail "pruning merged/ changed the report"
rm $m/gone.nio.nio $m/half.* $m/nofp.nio $m/README
# the node run folders removed: their stores and then their merged store go in one build
rm -r nodes/n1 nodes/n2
touch -d '1 hour ago' nodes/.niorep/* $m/*
"$niorep" build nodes -o nodes3.html --bootstraps 0 2>nodes.err || fail "build after the nodes went: $(cat nodes.err)"
grep -q '^niorep: nodes/.niorep: removed the cached stores of 2 run folders no longer in nodes (n1, n2; ' nodes.err \
    || fail "no line on the node run folders' stores: $(cat nodes.err)"
grep -q '^niorep: nodes/.niorep/merged: removed the merged store of 1 run whose node stores are gone (R; ' nodes.err \
    || fail "no line on the merged store of the gone nodes: $(cat nodes.err)"
ls $m/R.* 2>/dev/null && fail "the merged store of the gone nodes was left"
# node stores given as stores: merged/ in the cache of their folder, pruned the same way
mkdir -p nstores
for n in n1 n2; do
    mkdir -p "nodes/$n" && cp traces/plain/strace.log "nodes/$n/"
    printf '{"labels": {"run": "R", "node": "%s"}}\n' "$n" > "nodes/$n/manifest.json"
    "$niorep" ingest -q "nodes/$n" -o "nstores/$n.nio" || fail "ingest of node $n"
done
"$niorep" build nstores -o nstores1.html --bootstraps 0 2>nodes.err || fail "build of node stores: $(cat nodes.err)"
[ -e nstores/.niorep/merged/R.nio ] || fail "no merged store beside the node stores: $(ls -R nstores)"
cp nstores/.niorep/merged/R.nio.inputs nstores/.niorep/merged/old.nio.inputs
sed -i 's/^n\([12]\)\.nio/gone\1.nio/' nstores/.niorep/merged/old.nio.inputs
printf 'x' > nstores/.niorep/merged/old.nio
touch -d '1 hour ago' nstores/.niorep/merged/old.*
"$niorep" build nstores -o nstores2.html --bootstraps 0 2>nodes.err || fail "second build of node stores: $(cat nodes.err)"
grep -qx 'niorep: nstores/.niorep/merged: removed the merged store of 1 run whose node stores are gone (old; 2 files)' nodes.err \
    || fail "no line on the merged store of gone node stores: $(cat nodes.err)"
[ -e nstores/.niorep/merged/R.nio ] || fail "the merged store of the node stores given was pruned"
# a fresh merged store of a gone run stays
printf 'x' > nstores/.niorep/merged/fresh.nio
sed 's/^n\([12]\)\.nio/gone\1.nio/' nstores/.niorep/merged/R.nio.inputs > nstores/.niorep/merged/fresh.nio.inputs
"$niorep" build nstores -o nstores3.html --bootstraps 0 2>nodes.err || fail "third build of node stores: $(cat nodes.err)"
[ -e nstores/.niorep/merged/fresh.nio ] || fail "a merged store of the last ten minutes was pruned"
rm -r nodes nstores nodes*.html nstores*.html
ok "merged stores of gone runs pruned"

# $NIOREP_CACHE_DIR holds the caches, a folder per traces folder, and the
# traces folder stays untouched; a read-only traces folder's stores go to
# the user's cache ($XDG_CACHE_HOME/niorep) and are reused: until session
# 48 they went to a temporary folder, and every build ingested every run
mkdir -p ro/run && cp traces/plain/strace.log ro/run/
NIOREP_CACHE_DIR=$PWD/usercache "$niorep" build ro -o ro1.html --bootstraps 0 2>/dev/null || fail "build with NIOREP_CACHE_DIR"
NIOREP_CACHE_DIR=$PWD/usercache "$niorep" build ro -o ro2.html --bootstraps 0 2>ro.err || fail "second build with NIOREP_CACHE_DIR"
grep -qx 'niorep: stores of run folders: 0 ingested, 1 reused (inputs unchanged)' ro.err || fail "NIOREP_CACHE_DIR: $(cat ro.err)"
[ -e ro/.niorep ] && fail "NIOREP_CACHE_DIR set, and a cache was made beside the traces"
ls usercache/*-ro/run.nio >/dev/null 2>&1 || fail "no store in NIOREP_CACHE_DIR: $(find usercache | head -5)"
if unshare -m true 2>/dev/null; then
    unshare -m sh -c 'mount --bind ro ro && mount -o remount,bind,ro ro &&
        XDG_CACHE_HOME="$PWD/xdg" "$1" build ro -o ro3.html --bootstraps 0 2>/dev/null &&
        XDG_CACHE_HOME="$PWD/xdg" "$1" build ro -o ro4.html --bootstraps 0' sh "$niorep" 2>ro.err \
        || fail "build of a read-only traces folder: $(cat ro.err)"
    grep -qx 'niorep: stores of run folders: 0 ingested, 1 reused (inputs unchanged)' ro.err \
        || fail "a read-only traces folder's store was not reused: $(cat ro.err)"
    ls xdg/niorep/*-ro/run.nio >/dev/null 2>&1 || fail "no store in XDG_CACHE_HOME/niorep"
    cmp -s ro1.html ro4.html || fail "the report of the read-only traces differs"
else
    echo "note: no mount namespace here (unshare -m): the read-only traces folder is not checked"
fi
ok "caches of read-only traces folders"

# a folder of the user's cache names its traces folder (traces-folder);
# once that is gone, a build that uses the user's cache removes the
# folder's stores, merged/ and then the folder, files older than ten
# minutes only, with a line; a folder without that note (older niorep),
# one whose note does not match its name, one of a traces folder still
# there, and files that are not niorep's stay: until session 50 the
# user's cache only grew
uc=$PWD/usercache
for t in gonetraces gone2; do
    mkdir -p $t/run && cp traces/plain/strace.log $t/run/
    NIOREP_CACHE_DIR=$uc "$niorep" build $t -o gone1.html --bootstraps 0 2>/dev/null || fail "build of $t"
done
gone_dir=$(ls -d "$uc"/*-gonetraces) && gone2_dir=$(ls -d "$uc"/*-gone2) || fail "no user cache folder of gonetraces: $(ls $uc)"
[ "$(cat "$gone_dir/traces-folder")" = "$PWD/gonetraces" ] || fail "the user cache folder does not name its traces folder: $(cat "$gone_dir/traces-folder")"
mkdir -p "$gone_dir/merged" && printf 'x' > "$gone_dir/merged/R.nio"
cp -r "$gone_dir" "$uc/0123456789abcdef-nonote" && rm "$uc/0123456789abcdef-nonote/traces-folder"
cp -r "$gone_dir" "$uc/0123456789abcdef-mismatch"
printf 'mine' > "$gone2_dir/README"
rm -r gonetraces gone2
find "$uc" -exec touch -h -d '1 hour ago' {} +
NIOREP_CACHE_DIR=$uc "$niorep" build ro -o ro5.html --bootstraps 0 2>uc.err || fail "build with a gone traces folder's cache: $(cat uc.err)"
grep -qx "niorep: $uc: removed the caches of 2 traces folders that are gone ($PWD/gone2, $PWD/gonetraces; [0-9]* files; 1 folder kept, holding files written in the last 10 minutes or not niorep's)" uc.err \
    || fail "no line on the pruned user cache folders: $(cat uc.err)"
[ -e "$gone_dir" ] && fail "the user cache folder of a gone traces folder was left: $(ls -R "$gone_dir")"
[ "$(ls -A "$gone2_dir" | tr '\n' ' ')" = "README traces-folder " ] || fail "a folder holding a file not niorep's: $(ls -A "$gone2_dir")"
[ -e "$uc/0123456789abcdef-nonote/run.nio" ] || fail "a folder without its note was pruned"
[ -e "$uc/0123456789abcdef-mismatch/run.nio" ] || fail "a folder whose note does not match its name was pruned"
ls "$uc"/*-ro/run.nio >/dev/null 2>&1 || fail "the cache of a traces folder still there was pruned"
cmp -s ro1.html ro5.html || fail "the report of ro changed"
rm -r "$uc/0123456789abcdef-nonote" "$uc/0123456789abcdef-mismatch" "$gone2_dir" gone1.html
# a folder of a gone traces folder written in the last ten minutes stays
mkdir -p gonetraces/run && cp traces/plain/strace.log gonetraces/run/
NIOREP_CACHE_DIR=$uc "$niorep" build gonetraces -o gone2.html --bootstraps 0 2>/dev/null || fail "build of gonetraces again"
rm -r gonetraces
NIOREP_CACHE_DIR=$uc "$niorep" build ro -o ro6.html --bootstraps 0 2>uc.err || fail "build beside a fresh gone cache"
grep -q 'traces folder' uc.err && fail "a fresh user cache folder was pruned: $(cat uc.err)"
ls -d "$uc"/*-gonetraces >/dev/null 2>&1 || fail "the fresh user cache folder of a gone traces folder went"
rm -r "$uc"/*-gonetraces gone2.html
ok "the user cache's folders of gone traces folders pruned"

# a run given twice (its traces folder and itself) is read once, with a
# line: until session 48 it was two runs, plain and plain-2
"$niorep" build traces traces/plain ./traces/plain/ -o twice.html --bootstraps 0 2>twice.err || fail "build of a run given twice"
grep -q '(2 runs)' twice.err || fail "a run given twice is two runs: $(cat twice.err)"
[ "$(grep -c 'is traces/plain again; read once' twice.err)" = 2 ] || fail "no line on the run given twice: $(cat twice.err)"
cmp -s r1.html twice.html || fail "the report of a run given twice differs from the first"
# ... and takes no name: another folder's run of the same name is plain-2
mkdir -p other/plain && cp traces/hostile/strace.log other/plain/
"$niorep" build traces traces/plain other -o named.html --bootstraps 0 2>/dev/null || fail "build of a repeat and a namesake"
[ "$(grep -o 'data-nr-run="[a-z0-9-]*"' named.html | tr '\n' ' ')" = 'data-nr-run="hostile" data-nr-run="plain" data-nr-run="plain-2" ' ] \
    || fail "a repeated run took a name: $(grep -o 'data-nr-run="[a-z0-9-]*"' named.html | tr '\n' ' ')"
# a traces folder's own files (a script, a stray manifest.json) do not make
# it a run folder: until session 48 any trace.* or manifest.json did
echo 'strace -f -o strace.log python3 train.py' > traces/trace.sh
echo '{}' > traces/manifest.json
"$niorep" build traces -o strays.html --bootstraps 0 2>strays.err || fail "a traces folder with a script: $(cat strays.err)"
cmp -s r1.html strays.html || fail "a traces folder's own script changed the report"
rm traces/trace.sh traces/manifest.json
# a file that reads as a log beside the runs is left out with a line, not
# taken for the folder's one run (the run folders lost without a word)
head -2 traces/plain/strace.log > traces/excerpt.txt
"$niorep" build traces -o excerpt.html --bootstraps 0 2>excerpt.err || fail "a traces folder with an excerpt: $(cat excerpt.err)"
grep -qx 'niorep: traces: excerpt.txt reads as an strace log, but traces holds runs: read as a traces folder, excerpt.txt left out' \
    excerpt.err || fail "no line on the excerpt left out: $(cat excerpt.err)"
cmp -s r1.html excerpt.html || fail "a traces folder's excerpt of a log changed the report"
rm traces/excerpt.txt
ok "runs given twice read once; a traces folder's own files"

# a store that another writer renamed over the cached one (another build,
# killed before it wrote its own fingerprint) is not the store its
# fingerprint names: ingested again (until session 48 trusted for good)
cp traces/.niorep/plain.nio other.nio && mv other.nio traces/.niorep/plain.nio
"$niorep" build traces -o replaced.html --bootstraps 0 2>replaced.err || fail "build over a replaced store"
grep -qx 'niorep: stores of run folders: 1 ingested, 1 reused (inputs unchanged)' replaced.err \
    || fail "a store put in the cached one's place was trusted: $(cat replaced.err)"
cmp -s r1.html replaced.html || fail "the report after a replaced store differs"
stamp=$(stat -c %Y.%N traces/.niorep/plain.nio)
sleep 1 # the stamp has whole seconds
ok "a store renamed over the cached one is ingested again"

# an edit that keeps the log's size and puts its mtime back (touch -r) is
# still seen (the fingerprint has the ctime): until session 46 the stale
# store was trusted on every build
cp -p traces/plain/strace.log mtime.ref
sed -i 's/= 4096 <0.000030>/= 4095 <0.000030>/' traces/plain/strace.log
touch -r mtime.ref traces/plain/strace.log
"$niorep" build traces -o r3.html --bootstraps 0 2>/dev/null || fail "build after an edit"
[ "$(stat -c %Y.%N traces/.niorep/plain.nio)" != "$stamp" ] || fail "an edit with its mtime put back was not ingested again"
cmp -s r1.html r3.html && fail "the report did not change after the log was edited"
cp -p mtime.ref traces/plain/strace.log
"$niorep" build traces -o r4.html --bootstraps 0 2>/dev/null || fail "build after the edit was undone"
cmp -s r1.html r4.html || fail "the report of the restored log differs from the first"
stamp=$(stat -c %Y.%N traces/.niorep/plain.nio)
sleep 1 # the stamp has whole seconds
ok "an edit under a restored mtime is ingested again"

# a damaged cached store (a flipped byte, a cut file) is ingested again from its run, with a note
for damage in flip cut; do
    /usr/bin/python3 - traces/.niorep/plain.nio "$damage" <<'EOF'
import sys
p, how = sys.argv[1], sys.argv[2]
b = bytearray(open(p, "rb").read())
if how == "flip":
    b[len(b) // 3] ^= 0xFF
else:
    b = b[: len(b) // 2]
open(p, "wb").write(b)
EOF
    "$niorep" build traces -o r_$damage.html --bootstraps 0 2>damaged.err || fail "build over a damaged cache ($damage): exit $?: $(cat damaged.err)"
    grep -q 'plain.nio: .*; ingesting traces/plain again' damaged.err || fail "no note on the damaged cache ($damage): $(cat damaged.err)"
    # the tally counts it ingested (until session 50 a chunk found damaged
    # while modelling left it "reused", the line after the note)
    grep -q 'stores of run folders: 1 ingested, ' damaged.err || fail "the tally after a damaged cache ($damage): $(cat damaged.err)"
    cmp -s r1.html r_$damage.html || fail "the report after a damaged cache ($damage) differs"
done
ok "damaged cache ingested again"

# the figures are drawn on up to --jobs threads and imported in order
"$niorep" build traces -o rj1.html -j 1 --bootstraps 0 2>/dev/null || fail "build -j 1"
"$niorep" build traces -o rj4.html -j 4 --bootstraps 0 2>/dev/null || fail "build -j 4"
cmp -s r1.html rj1.html || fail "the report of -j 1 differs from the default jobs'"
cmp -s rj1.html rj4.html || fail "the report of -j 4 differs from -j 1's"
ok "the same report for -j 1 and -j 4"

echo '2000 1700000000.000950 read(3</data/x.bin>, ""..., 4096) = 4096 <0.000030>' >> traces/plain/strace.log
"$niorep" build traces -o r3.html --bootstraps 0 2>/dev/null || fail "third build"
[ "$(stat -c %Y.%N traces/.niorep/plain.nio)" != "$stamp" ] || fail "a changed log did not refresh the cached store"
cmp -s r1.html r3.html && fail "the report did not change with the log"
ok "changed log re-ingested"

"$niorep" build traces/.niorep/plain.nio -o r4.html --bootstraps 0 2>/dev/null || fail "build from a store"
grep -q 'data-nr-run="plain"' r4.html || fail "a store input is not named after its file"
grep -q 'data-nr="overview"' r4.html && fail "an overview with a single run"
ok "store input"

"$niorep" build traces >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing -o is not a usage error (2)"
"$niorep" build -o x.html >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing INPUT is not a usage error (2)"
"$niorep" build nothing-here -o x.html >/dev/null 2>&1; [ $? -eq 1 ] || fail "a missing input does not exit 1"
[ -e x.html ] && fail "a failed build left its output"
# a bad option is named once, by niorep (getopt printed its own line before)
"$niorep" build traces -o 2>opt.err; [ $? -eq 2 ] || fail "-o without its value: not exit 2"
[ "$(head -1 opt.err)" = "niorep build: option -o needs a value" ] || fail "-o without its value: $(cat opt.err)"
"$niorep" build traces --frobnicate -o x.html 2>opt.err; [ $? -eq 2 ] || fail "an unknown option: not exit 2"
[ "$(head -1 opt.err)" = "niorep build: unknown option '--frobnicate'" ] || fail "an unknown option: $(cat opt.err)"
"$niorep" build traces -j '' -o x.html 2>/dev/null; [ $? -eq 2 ] || fail "-j '' is not a usage error"
# an output that is a file a run reads (its log, its manifest) is refused
# before any work: until session 48 the report replaced the log (review 48)
cp traces/plain/strace.log plain.log.keep
"$niorep" build traces -o traces/plain/strace.log --bootstraps 0 2>overlog.err; [ $? -eq 2 ] || fail "an output onto a run's log: not exit 2"
grep -q 'traces/plain/strace.log: the output is also the input traces/plain/strace.log' overlog.err || fail "an output onto a run's log: $(cat overlog.err)"
cmp -s plain.log.keep traces/plain/strace.log || fail "an output onto a run's log replaced it"
# nor is a report named like a store or written into the cache: until
# session 49 one replaced the cached store, and a T/x.nio made every later
# build of T fail (review 49)
cp traces/.niorep/plain.nio plain.nio.keep
"$niorep" build traces -o traces/.niorep/plain.nio --bootstraps 0 2>overstore.err; [ $? -eq 2 ] || fail "an output onto a cached store: not exit 2"
grep -qx 'niorep: traces/.niorep/plain.nio: the output is named like a store (.nio), and a build reading its folder would take it for one; choose another name' overstore.err \
    || fail "an output onto a cached store: $(cat overstore.err)"
cmp -s plain.nio.keep traces/.niorep/plain.nio || fail "an output onto a cached store replaced it"
"$niorep" build traces -o traces/.niorep/x.html --bootstraps 0 2>incache.err; [ $? -eq 2 ] || fail "an output into the cache: not exit 2"
grep -q 'traces/.niorep/x.html: the output is in a cache folder of niorep' incache.err || fail "an output into the cache: $(cat incache.err)"
(cd traces/.niorep && "$niorep" build ../plain -o y.html --bootstraps 0 2>/dev/null); [ $? -eq 2 ] || fail "an output into the cache by a relative path: not exit 2"
[ -e traces/.niorep/x.html ] || [ -e traces/.niorep/y.html ] && fail "a report was written into the cache"
# an output folder that is not there is named before any run is ingested
rm -rf fresh && mkdir -p fresh/run && cp traces/plain/strace.log fresh/run/
"$niorep" build fresh -o no-such-dir/r.html 2>nodir.err; [ $? -eq 1 ] || fail "a missing output folder: not exit 1"
grep -q '^niorep: no-such-dir/r.html: cannot create output' nodir.err || fail "a missing output folder: $(cat nodir.err)"
[ -e fresh/.niorep ] && fail "a missing output folder was found only after the ingest"
# a build that fails leaves no empty cache folder beside its input
mkdir -p lone/empty && "$niorep" build lone/empty -o x.html 2>/dev/null && fail "an empty run folder built"
[ -e lone/.niorep ] && fail "a failed build left an empty lone/.niorep"
# a run folder's log given alone is named by its folder (until session 49
# the run was "strace.log")
"$niorep" build traces/plain/strace.log -o alone.html --bootstraps 0 2>/dev/null || fail "build of a log given alone"
grep -q 'data-nr-run="plain"' alone.html || fail "a log given alone: $(grep -o 'data-nr-run="[^"]*"' alone.html)"
ok "errors"

if grep -q 'built without the renderer' r1.html; then
    echo "skip: figures (niorep built without render/)"
else
    [ "$(grep -o '<svg' r1.html | wc -l)" -eq 22 ] && [ "$(grep -o '<svg data-nr-glyphs' r1.html | wc -l)" -eq 1 ] \
        || fail "expected 21 inline figures (7 overview + 7 per run) and one <svg> of shared glyphs"
    "$niorep" figures traces -o figs --format svg,pdf,png --bootstraps 0 2>/dev/null || fail "figures exit $?"
    for f in fig1-phase-breakdown fig2-lorenz fig3-file-bytes-ccdf fig4-read-latency fig5-throughput-timeline \
             fig6-request-sizes fig7-process-share; do
        for ext in svg pdf png; do [ -s "figs/$f.$ext" ] || fail "figures: no figs/$f.$ext"; done
    done
    # a figure folder whose parents do not exist yet is created with them (mkdir -p)
    "$niorep" build traces -o r5.html --figures new/deeper/figs --format svg --bootstraps 0 2>/dev/null \
        || fail "build --figures into missing folders: exit $?"
    [ -s new/deeper/figs/fig1-phase-breakdown.svg ] && [ -s new/deeper/figs/figures.json ] \
        || fail "build --figures did not create new/deeper/figs"
    head -c 8 figs/fig2-lorenz.png | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' || fail "not a PNG"
    if command -v pdfinfo >/dev/null; then
        [ "$(pdfinfo figs/fig1-phase-breakdown.pdf | awk '/^Pages:/ {print $2}')" = 1 ] || fail "PDF is not one page"
    fi
    /usr/bin/python3 - figs/figures.json <<'EOF' || fail "figures.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 7, d.get("schema_version")
assert d["runs"] == ["hostile", "plain"], d["runs"]
assert d["left_out"] == [], d["left_out"]
ids = [f["id"] for f in d["figures"]]
assert ids == list(range(1, 8)), ids
for f in d["figures"]:
    assert f["files"] == [f["stem"] + "." + e for e in ("svg", "pdf", "png")], f["files"]
# The numbers plotted: plain read 3 x 4096 bytes (after the appended line) in phase "unphased".
fig1 = d["figures"][0]["data"]
k = fig1["phases"].index("unphased")
assert fig1["bytes"][1][k] == 3 * 4096, fig1["bytes"]
# no run of these has the hook's waits: no strip (version 7)
assert all(t["waiting"] is None for t in d["figures"][4]["data"]["series"]), d["figures"][4]["data"]["series"]
reqsize = d["figures"][5]["data"]["series"][1]
assert sum(reqsize["reads"]) == 3, reqsize
# figure 4: plain's CDF starts at its fastest read (20 us) with P = 0, ends at 1
lat = d["figures"][3]["data"]["series"][1]
assert lat["latency_s"][0] == 20e-6 and lat["cdf"][0] == 0, (lat["latency_s"][:2], lat["cdf"][:2])
assert lat["cdf"][-1] == 1, lat["cdf"]
EOF
    ok "figures"

    # a figure folder inside the traces folder (and an empty folder) is no
    # run: the next build leaves it out, says so, and builds the runs
    mkdir -p inside && cp -r traces/plain inside/ && mkdir inside/empty
    "$niorep" build inside -o in1.html --figures inside/figs --format svg --bootstraps 0 2>/dev/null \
        || fail "build --figures inside the traces folder: exit $?"
    "$niorep" build inside -o in2.html --bootstraps 0 2>in2.err || fail "build beside its figures: exit $?: $(cat in2.err)"
    grep -q 'inside/figs: no strace log found .*left out of the runs' in2.err || fail "no note on the figure folder: $(cat in2.err)"
    grep -q 'inside/empty: no strace log found .*left out of the runs' in2.err || fail "no note on the empty folder"
    [ "$(grep -o 'data-nr-run="[a-z]*"' in2.html | tr '\n' ' ')" = 'data-nr-run="plain" ' ] || fail "runs beside the figures"
    # ... and the report does not list them: it would change once a first
    # build wrote its figures there
    ! grep -q 'Folders left out of the runs' in1.html in2.html || fail "the figure or empty folder listed in the report"
    cmp -s in1.html in2.html || fail "the report changed once its figures were written beside the runs"

    # a run folder without its log, one whose only log is hidden, and a
    # folder of runs one level too deep are left out, each named with why
    # in the report's overview (one run: until session 56 on stderr only)
    mkdir -p lo/nested/deep lo/nolog lo/hid && cp -r traces/plain lo/ && cp traces/plain/strace.log lo/nested/deep/
    echo '{}' > lo/nolog/manifest.json && cp traces/plain/strace.log lo/hid/.trace.77
    "$niorep" build lo -o lo1.html --bootstraps 0 2>lo.err || fail "build beside left-out folders: exit $?: $(cat lo.err)"
    [ "$(grep -c 'left out of the runs$' lo.err)" = 3 ] || fail "left-out folders on stderr: $(cat lo.err)"
    /usr/bin/python3 - lo1.html <<'EOF' || fail "left-out folders in the report"
import re, sys, html
t = open(sys.argv[1]).read()
i = t.index("Folders left out of the runs")
rows = re.findall(r"<tr><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td></tr>", t[i:t.index("</table>", i)])
rows = [(html.unescape(a), html.unescape(b)) for a, b in rows]
want = [("lo/hid", "no strace log found (expected strace.log or strace -ff files); .trace.77 is one but hidden (its name starts with '.'): rename it to read it"),
        ("lo/nested", "holds run folders, not a log: a traces folder is read one level deep; give lo/nested as an input of its own"),
        ("lo/nolog", "no strace log found (expected strace.log or strace -ff files)")]
assert rows == want, rows
EOF
    "$niorep" build lo -o lo2.html --bootstraps 0 2>/dev/null && cmp -s lo1.html lo2.html || fail "the left-out list is not deterministic"
    "$niorep" compare lo traces -o lo-compare.html --json lo-compare.json 2>/dev/null \
        || fail "compare beside left-out folders: exit $?"
    grep -qF 'left out of group A: lo/nolog (no strace log found' lo-compare.html || fail "compare does not list a left-out folder"
    # figures.json and compare --json list them too (a folder's name is
    # bytes: \xNN for those that are not UTF-8, as the report shows them)
    mkdir "lo/odd$(printf '\377')" && echo note > "lo/odd$(printf '\377')/notes.txt"
    "$niorep" figures lo -o lo-figs --format svg --bootstraps 0 2>/dev/null || fail "figures beside left-out folders: exit $?"
    /usr/bin/python3 - lo-figs/figures.json lo-compare.json <<'EOF' || fail "left-out folders in figures.json or compare --json"
import json, sys
f = json.load(open(sys.argv[1]))
assert [o["folder"] for o in f["left_out"]] == ["lo/hid", "lo/nested", "lo/nolog", "lo/odd\\xFF"], f["left_out"]
assert f["left_out"][1]["why"].startswith("holds run folders, not a log"), f["left_out"]
c = json.load(open(sys.argv[2]))
assert [[o["folder"] for o in g["left_out"]] for g in c["groups"]] == [["lo/hid", "lo/nested", "lo/nolog"], []], c["groups"]
EOF
    ok "left-out folders"

    # More runs than a figure tells apart (NR_FIG_DISTINCT_RUNS, 8): ten
    # copies of plain; the captions say what the overview draws of them.
    mkdir -p many
    for i in 1 2 3 4 5 6 7 8 9 10; do mkdir -p "many/run$i"; cp traces/plain/strace.log "many/run$i/"; done
    "$niorep" build many -o many.html --bootstraps 0 2>/dev/null || fail "build of 10 runs: exit $?"
    grep -q "Lorenz curves of the job files' bytes: every run in grey" many.html || fail "10 runs: no crowded Lorenz caption"
    grep -q 'Throughput timelines of the job files of the first 8 runs by name' many.html || fail "10 runs: no timeline caption"
    grep -q 'the lowest, median and highest share of each size bin over the runs' many.html \
        || fail "10 runs: no request-size caption"
    # natural name order: run2 before run10
    order=$(grep -o 'data-nr-run="run[0-9]*"' many.html | tr -d '"' | sed 's/data-nr-run=//' | tr '\n' ' ')
    [ "$order" = "run1 run2 run3 run4 run5 run6 run7 run8 run9 run10 " ] || fail "10 runs in the order: $order"
    "$niorep" build traces -o two.html --bootstraps 0 2>/dev/null
    grep -q "Lorenz curves of the job files' bytes, every run" two.html || fail "2 runs: the caption changed"
    ok "many runs"

    # Figure 4's points are the empirical CDF's: 3 reads of 5 us, 7 of 3.5 s.
    # The six decades between stay flat (a point at the slow bin's lower
    # edge), the p50 and p90 are points at their level (their markers on the
    # curve), and P(X >= x) ends at 1/n at the slowest call.
    mkdir -p gap/steps
    { echo '3000 1700000000.000100 openat(AT_FDCWD, "/data/g.bin", O_RDONLY) = 3</data/g.bin> <0.000010>'
      for i in 1 2 3; do echo "3000 1700000000.00020$i read(3</data/g.bin>, \"\"..., 4096) = 4096 <0.000005>"; done
      for i in 1 2 3 4 5 6 7; do echo "3000 170000000$i.000000 read(3</data/g.bin>, \"\"..., 4096) = 4096 <3.500000>"; done
      echo '3000 1700000009.000000 +++ exited with 0 +++'; } > gap/steps/strace.log
    "$niorep" figures gap -o gap-figs --format svg --bootstraps 0 2>/dev/null || fail "figures of the latency gap: exit $?"
    /usr/bin/python3 - gap-figs/figures.json <<'EOF' || fail "latency steps"
import json, sys
s = json.load(open(sys.argv[1]))["figures"][3]["data"]["series"][0]
pts = list(zip(s["latency_s"], s["cdf"], s["ccdf"]))
want = [(5e-06, 0.0, 1.0), (5.01187234e-06, 0.3, 0.7), (3.16227766, 0.3, 0.7),
        (3.5, 0.5, 0.5), (3.5, 0.9, 0.1), (3.5, 1.0, 0.1)]
assert len(pts) == len(want) and all(abs(a - b) <= 1e-9 * max(1, abs(b)) for p, w in zip(pts, want) for a, b in zip(p, w)), pts
assert s["p50_s"] == 3.5, s["p50_s"]
# one run without the hook: its "unphased" holds every read, the same curve as "all phases": one series
names = [x["name"] for x in json.load(open(sys.argv[1]))["figures"][3]["data"]["series"]]
assert names == ["all phases"], names
EOF
    ok "latency steps"

    # Figures 1, 4, 5 and 7 count the job's files; figure 1 draws the
    # runtime's (here 9 reads of 64 KiB of a Python module, 2 us each) as a
    # segment of its own (review 49, finding 1): until session 49 figure 4's
    # p50 was the module's 2 us, and the phase and the main process held
    # its 576 KiB.
    mkdir -p rt/one
    { echo '4000 1700000000.000100 openat(AT_FDCWD, "/usr/lib/python3.11/os.py", O_RDONLY) = 3</usr/lib/python3.11/os.py> <0.000010>'
      for i in 1 2 3 4 5 6 7 8 9; do echo "4000 1700000000.00020$i read(3</usr/lib/python3.11/os.py>, \"\"..., 65536) = 65536 <0.000002>"; done
      echo '4000 1700000000.100000 openat(AT_FDCWD, "/data/d.bin", O_RDONLY) = 4</data/d.bin> <0.000010>'
      for i in 1 2 3; do echo "4000 1700000000.20000$i read(4</data/d.bin>, \"\"..., 4096) = 4096 <0.000500>"; done
      echo '4000 1700000000.200004 read(4</data/d.bin>, "", 4096) = 0 <0.000500>'
      echo '4000 1700000001.000000 +++ exited with 0 +++'; } > rt/one/strace.log
    "$niorep" build rt -o rt.html --figures rt-figs --format svg --bootstraps 0 2>/dev/null || fail "build of the runtime run: exit $?"
    /usr/bin/python3 - rt-figs/figures.json <<'EOF' || fail "job files in figures 1, 4, 5 and 7"
import json, sys
f = {x["id"]: x["data"] for x in json.load(open(sys.argv[1]))["figures"]}
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
assert f[1]["runtime_bytes"] == [9 * 65536], f[1]["runtime_bytes"]
assert f[1]["bytes"] == [[3 * 4096]], f[1]["bytes"]
assert near(f[1]["runtime_io_time_s"][0], 28e-6), f[1]["runtime_io_time_s"]
assert near(f[1]["io_time_s"][0][0], 2010e-6), f[1]["io_time_s"]
lat = f[4]["series"]
assert [s["name"] for s in lat] == ["all phases"] and near(lat[0]["p50_s"], 500e-6), lat[0]["p50_s"]
assert near(lat[0]["latency_s"][0], 500e-6), lat[0]["latency_s"]
tl = f[5]["series"][0]
assert near(sum(tl["read_bps"]) * tl["bin_s"], 3 * 4096), sum(tl["read_bps"]) * tl["bin_s"]
assert f[7]["bytes"] == [[3 * 4096, 0, 0]], f[7]["bytes"]
assert near(f[7]["io_time_s"][0][0], 2010e-6), f[7]["io_time_s"]
# figure 6: the end-of-file read (0 B) is in no bin (bin 0-100 until session 49)
q = f[6]["series"][0]
assert q["reads"] == [0, 0, 3, 0, 0, 0, 0, 0, 0, 0] and q["eof_reads"] == 1, q
EOF
    grep -q 'of these: Python runtime files' rt.html || fail "the phase table has no row of the runtime files"
    grep -q 'peak read rate of the job files' rt.html || fail "the timeline's peaks are not the job files'"
    grep -q '>read, job files<' rt.html || fail "the latency table has no row of figure 4's reads"
    grep -q 'data-nr-key="access.read.eof_reads" data-nr-value="1"' rt.html || fail "the size table has no end-of-file row"
    ok "job files in figures 1, 4, 5 and 7; end-of-file reads in no size bin"

    # Figure 5's panels share one bin width (session 50): a run of 7 s has
    # 20 ms bins in the model, one of 15 s 50 ms ones; the figure merges both
    # into their least common multiple, 100 ms (until session 50 each panel
    # had its run's own width, so their peaks were not alike). The runtime's
    # read (64 KiB of a module) stays out, as in every figure 5.
    mkdir -p bins/short bins/long
    { echo '5000 1700000000.000000 openat(AT_FDCWD, "/data/s.bin", O_RDONLY) = 3</data/s.bin> <0.000010>'
      echo '5000 1700000000.010000 read(3</data/s.bin>, ""..., 4096) = 4096 <0.000010>'
      echo '5000 1700000000.150000 read(3</data/s.bin>, ""..., 8192) = 8192 <0.000010>'
      echo '5000 1700000000.150500 openat(AT_FDCWD, "/usr/lib/python3.11/os.py", O_RDONLY) = 4</usr/lib/python3.11/os.py> <0.000010>'
      echo '5000 1700000000.151000 read(4</usr/lib/python3.11/os.py>, ""..., 65536) = 65536 <0.000010>'
      echo '5000 1700000000.190000 read(3</data/s.bin>, ""..., 4096) = 4096 <0.000010>'
      echo '5000 1700000007.000000 close(3</data/s.bin>) = 0 <0.000001>'
      echo '5000 1700000007.000100 +++ exited with 0 +++'; } > bins/short/strace.log
    { echo '6000 1700000000.000000 openat(AT_FDCWD, "/data/l.bin", O_RDWR) = 3</data/l.bin> <0.000010>'
      echo '6000 1700000000.040000 read(3</data/l.bin>, ""..., 1000) = 1000 <0.000010>'
      echo '6000 1700000000.060000 read(3</data/l.bin>, ""..., 2000) = 2000 <0.000010>'
      echo '6000 1700000000.120000 read(3</data/l.bin>, ""..., 3000) = 3000 <0.000010>'
      echo '6000 1700000005.050000 write(3</data/l.bin>, ""..., 10000) = 10000 <0.000010>'
      echo '6000 1700000015.000000 close(3</data/l.bin>) = 0 <0.000001>'
      echo '6000 1700000015.000100 +++ exited with 0 +++'; } > bins/long/strace.log
    "$niorep" figures bins -o bins-figs --format svg --bootstraps 0 2>/dev/null || fail "figures of two bin widths: exit $?"
    for r in long short; do
        "$niorep" summary "bins/.niorep/$r.nio" --json --bootstraps 0 2>/dev/null \
            | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["timeline"]["bin_width_s"])'
    done | tr '\n' ' ' | grep -qx '0.05 0.02 ' || fail "the two runs do not have 50 ms and 20 ms bins in the model"
    /usr/bin/python3 - bins-figs/figures.json <<'EOF' || fail "one bin width in figure 5"
import json, sys
f = {x["id"]: x["data"] for x in json.load(open(sys.argv[1]))["figures"]}[5]
near = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
assert f.get("bin_s") == 0.1, f.get("bin_s")
long_, short = f["series"]
assert long_["name"] == "long" and short["name"] == "short", (long_["name"], short["name"])
assert long_["bin_s"] == short["bin_s"] == 0.1, (long_["bin_s"], short["bin_s"])
# 301 bins of 50 ms and 351 of 20 ms, merged 2 and 5 at a time
assert len(long_["read_bps"]) == 151 and len(short["read_bps"]) == 71, (len(long_["read_bps"]), len(short["read_bps"]))
want = {0: 3000 / 0.1, 1: 3000 / 0.1}
assert all(near(v, want.get(i, 0)) for i, v in enumerate(long_["read_bps"])), long_["read_bps"][:3]
assert all(near(v, 10000 / 0.1 if i == 50 else 0) for i, v in enumerate(long_["write_bps"])), long_["write_bps"][48:52]
want = {0: 4096 / 0.1, 1: (8192 + 4096) / 0.1}
assert all(near(v, want.get(i, 0)) for i, v in enumerate(short["read_bps"])), short["read_bps"][:3]
EOF
    ok "figure 5's panels share one bin width"

    # A run folder's name of Latin-1 bytes ("caf\xE9"): drawn, written to
    # figures.json and shown in the report as caf\xE9, not a failed build.
    latin=$(printf 'caf\xe9')
    mkdir -p "latin/$latin" && cp traces/plain/strace.log "latin/$latin/"
    "$niorep" build latin -o latin.html --figures latin-figs --format svg,png --bootstraps 0 2>latin.err \
        || fail "a non-UTF-8 run name: build exit $?: $(head -3 latin.err)"
    grep -q 'Pango' latin.err && fail "a non-UTF-8 run name reached pango: $(head -1 latin.err)"
    grep -q 'data-nr-run="caf\\xE9"' latin.html || fail "a non-UTF-8 run name is not caf\\xE9 in the report"
    /usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["figures"][0]["data"]["runs"] == ["caf\\xE9"], d["figures"][0]["data"]' \
        latin-figs/figures.json || fail "figures.json does not name the run caf\\xE9"
    [ -s latin-figs/fig1-phase-breakdown.png ] || fail "a non-UTF-8 run name: no fig1 PNG"
    ok "non-UTF-8 run name"
fi

# Node runs of labels 'a/b' and 'a_b' merge into two cached stores, kept
# apart from each other and from a run folder named 'a_b.run': until
# session 48 'a/b' and 'a_b' shared .niorep/a_b.run.nio, which the folder
# 'a_b.run' had too, and each build made every one of them again.
for run in a/b a_b; do
    for node in n1 n2; do
        d=nodes/$(echo "$run" | tr / -)-$node
        mkdir -p "$d" && cp traces/plain/strace.log "$d/"
        printf '{"labels": {"run": "%s", "node": "%s"}}\n' "$run" "$node" > "$d/manifest.json"
    done
done
mkdir -p nodes/a_b.run && cp traces/hostile/strace.log nodes/a_b.run/
"$niorep" build nodes -o nodes1.html --bootstraps 0 2>nodes.err || fail "build of node runs: $(cat nodes.err)"
grep -q '(3 runs)' nodes.err || fail "node runs of two labels and a run: $(cat nodes.err)"
[ -s 'nodes/.niorep/merged/a%2Fb.nio' ] && [ -s nodes/.niorep/merged/a_b.nio ] && [ -s nodes/.niorep/a_b.run.nio ] \
    || fail "the merged stores are not apart: $(find nodes/.niorep -name '*.nio' | sort | tr '\n' ' ')"
"$niorep" build nodes -o nodes2.html --bootstraps 0 2>nodes.err || fail "second build of node runs: $(cat nodes.err)"
grep -qx 'niorep: stores of run folders: 0 ingested, 5 reused (inputs unchanged)' nodes.err \
    && grep -qx 'niorep: stores merged from node stores: 0 merged, 2 reused (parts unchanged)' nodes.err \
    || fail "the second build of node runs made stores again: $(cat nodes.err)"
cmp -s nodes1.html nodes2.html || fail "two builds of node runs differ"
ok "merged stores of distinct labels kept apart"

# A run folder of 246 bytes (a file name may have 255) builds, and builds
# again from its cache: its cache names are cut and end with a hash (until
# session 48 "File name too long", review 48)
long=$(printf 'r%.0s' $(seq 246))
mkdir -p "longs/$long" && cp traces/plain/strace.log "longs/$long/"
"$niorep" build longs -o long1.html 2>long.err || fail "a run folder of 246 bytes: $(cat long.err)"
"$niorep" build longs -o long2.html 2>long.err || fail "a run folder of 246 bytes, again: $(cat long.err)"
grep -qx 'niorep: stores of run folders: 0 ingested, 1 reused (inputs unchanged)' long.err || fail "a long run folder's cache: $(cat long.err)"
cmp -s long1.html long2.html || fail "two builds of a long run folder differ"
ok "long run folder names"

# A build models runs a few ahead of their use and frees each model once
# its part of the report is made: 7 runs on one thread hold 1 model at
# once, on two at most 4 (2 a job), not 7 (until session 51 every model
# lived to the end: 800 runs of 125 KB logs held 224 MB of models, review
# 50; in session 51 one thread held 2, by groups), and the report is the
# one of 2 threads.
for i in 1 2 3 4 5 6 7; do mkdir -p "few/r$i" && cp traces/plain/strace.log "few/r$i/"; done
"$niorep" build few -o few1.html -j 1 --bootstraps 0 --timings 2>few.err || fail "7 runs: $(cat few.err)"
grep -q 'models held at once 1 of 7$' few.err || fail "7 runs on one thread: $(grep timings few.err)"
"$niorep" build few -o few2.html -j 2 --bootstraps 0 --timings 2>few.err || fail "7 runs, -j 2: $(cat few.err)"
grep -q 'models held at once [1-4] of 7$' few.err || fail "7 runs on two threads: $(grep timings few.err)"
cmp -s few1.html few2.html || fail "7 runs: -j 1 and -j 2 differ"
[ "$(grep -o 'data-nr-run="r[0-9]"' few1.html | tr '\n' ' ')" = \
  'data-nr-run="r1" data-nr-run="r2" data-nr-run="r3" data-nr-run="r4" data-nr-run="r5" data-nr-run="r6" data-nr-run="r7" ' ] \
    || fail "7 runs: not every run in order"
ok "a build holds a few models at once"

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all passed"
