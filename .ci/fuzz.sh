#!/usr/bin/env bash
# Runs every libFuzzer harness (tests/fuzz/*_fuzz.cc) for a bounded time.
#   bash .ci/fuzz.sh [--seconds N | --runs N] [--seed S] [--merge] [harness ...]
# --seconds N  explore for N seconds per harness with a random seed (default:
#              $IKPD_FUZZ_SECONDS or 60); also reads the inputs that earlier
#              runs found in build/fuzz/corpus/<harness>/
# --runs N     deterministic (npm test): replay the checked-in corpus, then
#              exactly N new inputs from a fixed seed, starting from an empty
#              scratch corpus, so a run depends only on the commit
# --seed S     libFuzzer seed (default: random with --seconds, 1 with --runs)
# --junit FILE write a JUnit-style summary (one test per harness) for tests/summary.mjs
# --merge      afterwards, minimize the new inputs into the checked-in corpus
#              tests/fuzz/corpus/<harness>/ (commit the result)
# Each run reads the checked-in corpus and writes new inputs under build/fuzz/
# (never to the repository); a crash, a sanitizer report or a broken invariant
# stops with the reproducer in build/fuzz/artifacts/ (replay: build/fuzz/<harness>
# build/fuzz/artifacts/<file>). Exits non-zero when any harness fails.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${IKPD_FUZZ_SECONDS:-60}
runs=
seed=
merge=0
junit=
harnesses=()
while (($#)); do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --merge) merge=1; shift ;;
    --junit) junit=$2; shift 2 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) harnesses+=("${1%_fuzz}_fuzz"); shift ;;
  esac
done
if ((${#harnesses[@]} == 0)); then
  source .ci/fuzz-harnesses.sh
  mapfile -t harnesses < <(default_harnesses fuzz.sh)
fi
write_junit() {  # tests failures
  [ -n "$junit" ] && printf '<testsuite name="fuzz" tests="%d" failures="%d" errors="0"></testsuite>\n' "$1" "$2" >"$junit"
  return 0
}
if ((${#harnesses[@]} == 0)); then echo "fuzz.sh: no harnesses in tests/fuzz/"; write_junit 0 0; exit 0; fi

if ! bash .ci/build.sh fuzz; then write_junit "${#harnesses[@]}" "${#harnesses[@]}"; exit 1; fi
mkdir -p build/fuzz/artifacts
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One harness: its line of output in build/fuzz/<harness>.line, FAILED in it when it failed.
fuzz_one() {
  local h=$1 seeds work limit log line
  seeds=tests/fuzz/corpus/$h
  mkdir -p "$seeds"
  if [ -n "$runs" ]; then
    # libFuzzer first runs every corpus input, then mutates; -runs counts both.
    # Same seed, same runs: -use_cmp=0 and -entropic=0 because comparison-guided
    # mutations (heap addresses) and the entropic schedule (timings) made two
    # such runs diverge.
    work=build/fuzz/ci-corpus/$h
    rm -rf "$work"
    limit=(-runs=$(($(find "$seeds" -type f | wc -l) + runs)) -seed="${seed:-1}" -use_cmp=0 -entropic=0)
    line=$(printf '%-28s %6s new inputs ... ' "$h" "$runs")
  else
    work=build/fuzz/corpus/$h
    limit=(-max_total_time="$seconds")
    [ -n "$seed" ] && limit+=(-seed="$seed")
    line=$(printf '%-28s %4ss ... ' "$h" "$seconds")
  fi
  mkdir -p "$work"
  log=build/fuzz/$h.log
  # -max_len keeps inputs (and the checked-in corpus) small; every harness
  # draws a few hundred bytes at most.
  if build/fuzz/"$h" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=512 \
      -print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/"$h"- \
      "$work" "$seeds" >"$log" 2>&1; then
    line+="ok ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?') runs)"
  else
    line+="FAILED (log: $log)"
    local why
    why=$(grep -E 'Seed:|ERROR|runtime error|FUZZ CHECK|SUMMARY|Test unit written' "$log" | head -20 || true)
    [ -n "$why" ] && line+=$'\n'"$why"
  fi
  if ((merge)); then
    # Edge coverage only (no hit counts) keeps the checked-in corpus small.
    build/fuzz/"$h" -merge=1 -use_counters=0 -max_len=512 "$seeds" "$work" >>"$log" 2>&1
  fi
  printf '%s\n' "$line" >build/fuzz/"$h".line
}
# One harness per core at a time (each is single-threaded); lines printed in harness order.
parallel=$(nproc 2>/dev/null || echo 2)
for h in "${harnesses[@]}"; do
  rm -f build/fuzz/"$h".line
  while (($(jobs -rp | wc -l) >= parallel)); do wait -n || true; done
  fuzz_one "$h" &
done
wait
failed=()
for h in "${harnesses[@]}"; do
  cat build/fuzz/"$h".line 2>/dev/null || echo "$h: no result"
  grep -q FAILED build/fuzz/"$h".line 2>/dev/null && failed+=("$h")
  [ -f build/fuzz/"$h".line ] || failed+=("$h")
done
write_junit "${#harnesses[@]}" "${#failed[@]}"
if ((${#failed[@]})); then echo "fuzz.sh: FAILED: ${failed[*]}" >&2; exit 1; fi
