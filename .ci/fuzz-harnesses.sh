# Sourced by fuzz.sh and fuzz-soak.sh. default_harnesses NAME prints every
# harness (tests/fuzz/*_fuzz.cc) except those in tests/fuzz/KNOWN_FAILING
# (name them to run them), telling stderr which it skips, as NAME.
default_harnesses() {
  local f h
  for f in tests/fuzz/*_fuzz.cc; do
    [ -e "$f" ] || continue
    h=$(basename "$f" .cc)
    if grep -q "^$h " tests/fuzz/KNOWN_FAILING 2>/dev/null; then
      echo "$1: skipping $h (tests/fuzz/KNOWN_FAILING)" >&2
      continue
    fi
    echo "$h"
  done
}
