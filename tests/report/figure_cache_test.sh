#!/bin/bash
# The figures kept beside a cached store (<store>.fig<ID>-B-S, cli/figure_cache.c)
# on copies of two committed sample runs: a second build reads every run's
# figures (the report byte-identical, the files untouched) and a tampered
# kept figure reaches the report (they are used, not only written); damaged
# files, a touched store, other --bootstraps and other fonts draw again and
# give the first report; a store given as a file keeps none.
# usage: figure_cache_test.sh NIOREP REPO
set -u
niorep=$(realpath "$1")
repo=$(realpath "$2")
. "$(dirname "$0")/checks.sh"

mkdir -p "$tmp/traces"
cp -r "$repo/datasets/sample/mlp" "$repo/datasets/sample/rl" "$tmp/traces/"
cd "$tmp" || exit 1
cache=traces/.niorep
# build OUT BOOTSTRAPS [ENV...]: sets kept to the build's "K of N kept"
build() {
    local out=$1 b=$2
    shift 2
    env "$@" "$niorep" build traces -o "$out" --bootstraps "$b" --timings 2>build.err ||
        fail "build $out exit $?: $(cat build.err)"
    kept=$(sed -n 's/.*figures [0-9.]* s, \([0-9]* of [0-9]*\) kept.*/\1/p' build.err)
}
stamps() { stat -c '%n %Y.%y' "$cache"/*.fig*; }

build r1.html 20
[ "$kept" = "0 of 21" ] || fail "first build kept '$kept', not 0 of 21 (2 runs of 7 figures, 7 of both)"
[ "$(ls "$cache"/mlp.nio.fig?-20-1 "$cache"/rl.nio.fig?-20-1 2>/dev/null | wc -l)" -eq 14 ] ||
    fail "not 7 kept figures a run: $(ls "$cache")"
head -n 1 "$cache/mlp.nio.fig2-20-1" | grep -qx 'niorep .* figure 1' || fail "no key line in a kept figure"
grep -qa '^run 3:mlp$' "$cache/mlp.nio.fig2-20-1" || fail "the key does not name the run"
stamps > stamps.first
ok "figures kept after the first build"

sleep 1
build r2.html 20
[ "$kept" = "14 of 21" ] || fail "second build kept '$kept', not 14 of 21"
cmp -s r1.html r2.html || fail "the build with kept figures differs from the first"
stamps | cmp -s - stamps.first || fail "kept figures were written again"
ok "kept figures read, report byte-identical"

# fig2 of mlp with one colour changed, packed again under its key: the
# report must show the changed figure
f=$cache/mlp.nio.fig2-20-1
cp "$f" fig2.first
keylen=$(grep -abn -m1 '^svg [0-9]*$' "$f" | cut -d: -f2) # byte offset of the "svg N" line
head -c "$keylen" "$f" > key
svgline=$(tail -c +$((keylen + 1)) "$f" | head -n 1)
tail -c +$((keylen + ${#svgline} + 2)) "$f" | zstd -q -d -c > fig2.svg || fail "the kept frame does not decompress"
[ "$(wc -c < fig2.svg)" = "${svgline#svg }" ] || fail "the svg line does not give the figure's size"
colour=$(grep -o 'rgb([0-9.%,]*)' fig2.svg | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
[ -n "$colour" ] || fail "no colour in the kept figure"
sed "s/$colour/rgb(12.3%,45.6%,78.9%)/g" fig2.svg > fig2.tampered.svg
zstd -q --check -c fig2.tampered.svg > frame
{ cat key; echo "svg $(wc -c < fig2.tampered.svg)"; cat frame; } > "$f"
build r3.html 20
[ "$kept" = "14 of 21" ] || fail "the tampered figure was not read: kept '$kept'"
grep -q 'rgb(12.3%,45.6%,78.9%)' r3.html || fail "the tampered kept figure did not reach the report"
ok "kept figures are the ones the report shows"

# a whole, checked frame that the report cannot take (not an SVG; an SVG
# with a DTD, whose entities the parse refuses to expand) is damage too:
# until session 53 the build failed on it ("figure fig2: not an SVG")
printf hello > notsvg.svg
sed '1a <!DOCTYPE svg [<!ENTITY a "b">]>' fig2.svg > dtd.svg
for damage in truncated flipped header notsvg dtd; do
    case $damage in
    notsvg | dtd) { cat key; echo "svg $(wc -c < $damage.svg)"; zstd -q --check -c $damage.svg; } > "$f" ;;
    truncated) head -c -20 fig2.first > "$f" ;;
    flipped) # a byte inside the frame changed: its checksum fails
        cp fig2.first "$f"
        size=$(stat -c %s "$f")
        b=$(od -An -tu1 -j $((size - 100)) -N1 "$f")
        printf "\\$(printf %o $((b ^ 0x55)))" | dd of="$f" bs=1 seek=$((size - 100)) conv=notrunc status=none ;;
    header) sed '0,/^svg /s/^svg \([0-9]*\)$/svg 1\1/' fig2.first > "$f" ;;
    esac
    build r4.html 20
    [ "$kept" = "13 of 21" ] || fail "a $damage file was read: kept '$kept'"
    cmp -s r1.html r4.html || fail "the report after a $damage kept figure differs"
    cmp -s "$f" fig2.first || fail "a $damage kept figure was not drawn and kept again"
done
ok "damaged files are drawn again"

touch "$cache/rl.nio"
build r5.html 20
[ "$kept" = "7 of 21" ] || fail "after a touched store kept '$kept', not 7 of 21"
cmp -s r1.html r5.html || fail "the report after a touched store differs"
build r5b.html 20
[ "$kept" = "14 of 21" ] || fail "the figures drawn after a touched store were not kept: '$kept'"
ok "a touched store draws its run again"

stamps > stamps.20
build r6.html 30
[ "$kept" = "0 of 21" ] || fail "--bootstraps 30 kept '$kept'"
[ "$(ls "$cache"/*.fig?-30-1 | wc -l)" -eq 14 ] || fail "other --bootstraps do not keep their own figures"
stamps | grep -- '-20-1 ' | cmp -s - stamps.20 || fail "a build of 30 bootstraps touched the figures of 20"
ok "other options draw and keep their own figures"

mkdir fonts
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf fonts/
build r7.html 20 NR_FONT_DIR="$tmp/fonts"
[ "$kept" = "0 of 21" ] || fail "other font files kept '$kept'"
cmp -s r1.html r7.html || fail "the same fonts from another folder changed the report"
ok "other font files draw again"

cp "$cache/mlp.nio" solo.nio # no fingerprint beside it
for round in 1 2; do
    "$niorep" build solo.nio -o r8.html --timings 2>build.err || fail "build of a store: $(cat build.err)"
done
ls solo.nio.* 2>/dev/null && fail "a store given as a file got files beside it"
grep -q 'figures [0-9.]* s, 0 of 7 kept' build.err || fail "a store given as a file kept figures: $(cat build.err)"
ok "a store outside the cache keeps none"

[ $fails -eq 0 ] || exit 1
