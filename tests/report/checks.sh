# Sourced by the report's shell tests: a temporary folder $tmp removed at
# exit; fail (printed and counted in $fails) and ok (printed when its
# section, the checks since the last ok, had no failure).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
section_fails=0
ok() { [ $fails -eq $section_fails ] && echo "ok: $*"; section_fails=$fails; }
