#!/bin/sh
# PDF check: every figure is one page of the paper width, with DejaVu Sans
# embedded and no font left unembedded. Usage: check_pdf.sh RENDER_DEMO
set -eu
command -v pdfinfo >/dev/null && command -v pdffonts >/dev/null || { echo "poppler-utils missing"; exit 77; }
demo=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$demo" "$dir" --case six --format pdf
n=0
for pdf in "$dir"/*.pdf; do
    n=$((n + 1))
    info=$(pdfinfo "$pdf")
    echo "$info" | grep -q '^Pages: *1$' || { echo "FAIL $pdf: not one page"; exit 1; }
    case "$pdf" in
    *-col.pdf) w=252 ;;
    *) w=504 ;;
    esac
    echo "$info" | grep -Eq "^Page size: *$w x [0-9.]+ pts" || { echo "FAIL $pdf: page width is not $w pt"; echo "$info"; exit 1; }
    echo "$info" | grep -q 'CreationDate' && { echo "FAIL $pdf: has a creation date"; exit 1; }
    fonts=$(pdffonts "$pdf" | tail -n +3)
    [ -n "$fonts" ] || { echo "FAIL $pdf: no fonts"; exit 1; }
    echo "$fonts" | grep -v 'DejaVuSans' && { echo "FAIL $pdf: a font other than DejaVu Sans"; exit 1; }
    # columns: name type encoding emb sub uni id; emb must be yes everywhere
    echo "$fonts" | awk '{ if ($(NF-4) != "yes") bad = 1 } END { exit bad }' || { echo "FAIL $pdf: font not embedded"; pdffonts "$pdf"; exit 1; }
done
[ "$n" -eq 14 ] || { echo "FAIL expected 14 PDFs, got $n"; exit 1; }
echo "ok: $n PDFs, one page each, DejaVu Sans embedded"
