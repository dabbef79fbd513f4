#!/usr/bin/env bash
# `npm test`: installs what is missing, builds native + WASM, runs every suite,
# prints one closing line "ikpd: N passed, N failed". Exits non-zero when any test fails.
#   IKPD_FUZZ_RUNS  new inputs per fuzz harness after replaying its corpus, from a
#                   fixed seed so the run is deterministic (default 20000; 0 skips fuzzing)
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's heading says when it starts (seconds since the start), so a
# slow CI run shows where its time went.
stage() { echo "== $* (at ${SECONDS} s)"; }
stage "installing what is missing"
bash .ci/ensure-deps.sh
stage "building native + WASM"
bash .ci/build.sh native wasm

# A GoogleTest binary as two shards at once (one per core; the suite is
# single-threaded): one report per shard, logs printed after both end.
#   gtest_shards <binary> <report path without .xml> [gtest flags...]
gtest_shards() {
  local binary=$1 report=$2 rc=0 pids=() i
  shift 2
  for i in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i "$binary" --gtest_brief=1 --gtest_output="xml:$report-$i.xml" "$@" >"$report-$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || rc=1; done
  cat "$report-0.log" "$report-1.log"
  return $rc
}

reports=build/reports
rm -rf "$reports" && mkdir -p "$reports"
status=0

stage "native tests (GoogleTest via CTest)"
ctest --test-dir build/native --output-on-failure -j2 --output-junit "$PWD/$reports/ctest.xml" || status=1

stage "native tests under AddressSanitizer + UndefinedBehaviorSanitizer"
if bash .ci/build.sh sanitize; then
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    gtest_shards build/fuzz/ikpd_tests "$reports/sanitize" || status=1
else
  status=1
fi

stage "native tests without SIMD lanes (IKPD_NO_SIMD: the path other CPUs build)"
v3_report=()
if bash .ci/build.sh variants; then
  gtest_shards build/native/ikpd_tests_nosimd "$reports/nosimd" --gtest_filter='-Golden.*' || status=1
  if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; then
    stage "native tests on the x86-64-v3 library (AVX2 8-wide lanes, results bit-identical to SSE2)"
    gtest_shards build/native/ikpd_tests_v3 "$reports/v3" || status=1
    v3_report=("$reports/v3-0.xml" "$reports/v3-1.xml")
  else
    stage "x86-64-v3 tests not run: this CPU has no AVX2/FMA (it could not run them)"
  fi
else
  status=1
fi

stage "JS and browser tests (Vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json" || status=1

fuzz_runs=${IKPD_FUZZ_RUNS:-20000}
fuzz_report=()
if [ "$fuzz_runs" != 0 ]; then
  stage "fuzzing (libFuzzer + ASan + UBSan: corpus + ${fuzz_runs} fixed-seed inputs per harness; npm run fuzz explores longer)"
  bash .ci/fuzz.sh --runs "$fuzz_runs" --junit "$reports/fuzz.xml" || status=1
  fuzz_report=("$reports/fuzz.xml")
fi

stage "summary"
node tests/summary.mjs "$reports/ctest.xml" "$reports"/sanitize-{0,1}.xml "$reports"/nosimd-{0,1}.xml "${v3_report[@]}" "$reports/vitest.json" "${fuzz_report[@]}"
exit $status
