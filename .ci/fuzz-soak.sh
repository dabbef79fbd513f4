#!/usr/bin/env bash
# `npm run fuzz:soak`: every libFuzzer harness (tests/fuzz/*_fuzz.cc) with a random
# seed, for a long, configurable time, built for speed: -fsanitize=fuzzer only (no
# ASan/UBSan; the fixed-seed runs of `npm test` and `npm run fuzz` keep them), in
# build/fuzz-soak/. Prints the inputs tried per harness, the total, the time and
# the commit, and writes the same to build/fuzz-soak/summary.txt.
#   bash .ci/fuzz-soak.sh [--seconds-per-harness N | --runs-per-harness N]
#                         [--parallel P] [--merge] [harness[=N|=Ns] ...]
# --seconds-per-harness N  explore each harness for N seconds (default 60)
# --runs-per-harness N     or stop each harness after N inputs (e.g. 10000000)
# --parallel P             harnesses run at once, one core each (default: nproc)
# harness=N / harness=Ns   this harness alone stops after N inputs / N seconds
#                          (e.g. two_bone=30000000 pd=1800s), the others as above
# harness=N/K              the same, split over K processes with their own seeds
#                          (N/K inputs each; with Ns each runs N seconds), for a
#                          harness slow enough to want more than one core
#                          (e.g. pd=10000000/2); its summary line adds them up
# --merge                  afterwards, minimize the new inputs into the checked-in
#                          corpus tests/fuzz/corpus/<harness>/ (commit the result)
# A failing harness leaves its reproducer in build/fuzz/artifacts/ (replay it under
# the sanitizers: bash .ci/build.sh fuzz && build/fuzz/<harness> <file>); the
# script then exits non-zero. Harnesses in tests/fuzz/KNOWN_FAILING are skipped
# unless named.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
runs=
parallel=$(nproc 2>/dev/null || echo 2)
merge=0
harnesses=()
while (($#)); do
  case "$1" in
    --seconds-per-harness) seconds=$2; runs=; shift 2 ;;
    --runs-per-harness) runs=$2; shift 2 ;;
    --parallel) parallel=$2; shift 2 ;;
    --merge) merge=1; shift ;;
    -*) echo "fuzz-soak.sh: unknown option $1" >&2; exit 2 ;;
    *=*/*)
      name=${1%%=*}; own=${1#*=}; limit=${own%/*}; k=${own##*/}
      [[ $limit == *s ]] || limit=$((limit / k))
      for ((i = 1; i <= k; i++)); do harnesses+=("${name%_fuzz}_fuzz#$i=$limit"); done
      shift ;;
    *=*) name=${1%%=*}; harnesses+=("${name%_fuzz}_fuzz=${1#*=}"); shift ;;
    *) harnesses+=("${1%_fuzz}_fuzz"); shift ;;
  esac
done
if ((${#harnesses[@]} == 0)); then
  source .ci/fuzz-harnesses.sh
  mapfile -t harnesses < <(default_harnesses fuzz-soak.sh)
fi

out=build/fuzz-soak
cmake -S . -B "$out" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release \
  -DIKPD_FUZZ=ON -DIKPD_FUZZ_SANITIZE=OFF -DIKPD_BUILD_TESTS=OFF >/dev/null
cmake --build "$out" -j"$parallel" --target ikpd_fuzzers
mkdir -p build/fuzz/artifacts "$out/logs"

commit=$(git rev-parse --short=12 HEAD)
git diff --quiet HEAD -- cpp tests/fuzz 2>/dev/null || commit="$commit+local changes"

# One harness: random seed, the checked-in corpus plus what earlier soaks found.
run_one() {
  local h=${1%%=*} own= part= seed=$((RANDOM * 32768 + RANDOM))
  [[ $1 == *=* ]] && own=${1#*=}
  [[ $h == *#* ]] && part=.${h#*#} && h=${h%%#*}
  local limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  case "$own" in
    *s) limit=(-max_total_time="${own%s}") ;;
    ?*) limit=(-runs="$own") ;;
  esac
  mkdir -p "$out/corpus/$h" "tests/fuzz/corpus/$h"
  local log=$out/logs/$h$part.log start=$SECONDS
  if "$out/$h" "${limit[@]}" -seed="$seed" -timeout=10 -rss_limit_mb=2048 -max_len=512 \
      -print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/"$h"- \
      "$out/corpus/$h" "tests/fuzz/corpus/$h" >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
  fi
  local n
  n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  echo "$h $n $((SECONDS - start)) $seed $status" >"$out/logs/$h$part.result"
}
export -f run_one
export out seconds runs

start=$SECONDS
rm -f "$out"/logs/*.result
printf '%s\n' "${harnesses[@]}" | xargs -P "$parallel" -I{} bash -c 'run_one {}'
elapsed=$((SECONDS - start))
mapfile -t harnesses < <(printf '%s\n' "${harnesses[@]%%=*}" | sed 's/#.*//' | awk '!seen[$0]++')

summary=$out/summary.txt
{
  echo "ikpd fuzz soak: commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC'), $parallel at once, no sanitizers"
  printf '%-24s %14s %8s %12s %12s  %s\n' harness inputs seconds inputs/s seed status
  total=0
  failed=()
  for h in "${harnesses[@]}"; do
    # A harness split over several processes: inputs added up, the longest time,
    # every seed, FAILED when any part failed.
    read -r name n secs seed status < <(awk 'BEGIN {n = 0; s = 0} {n += $2; if ($3 + 0 > s) s = $3 + 0; seeds = seeds (NR > 1 ? "," : "") $4;
        if ($5 != "ok") st = "FAILED"} END {print $1, n, s, seeds, (st ? st : "ok")}' "$out/logs/$h".*result)
    total=$((total + n))
    [ "$status" = ok ] || failed+=("$h")
    printf '%-24s %14d %8d %12d %12s  %s\n' "$name" "$n" "$secs" "$((n / (secs > 0 ? secs : 1)))" "$seed" "$status"
  done
  printf '%-24s %14d %8d\n' total "$total" "$elapsed"
  ((${#failed[@]} == 0)) || echo "FAILED: ${failed[*]} (logs: $out/logs/, reproducers: build/fuzz/artifacts/)"
} | tee "$summary"
for h in "${harnesses[@]}"; do
  for r in "$out/logs/$h".*result; do
    if grep -q FAILED "$r"; then
      grep -E 'ERROR|runtime error|FUZZ CHECK|SUMMARY|Test unit written' "${r%result}log" | head -10 || true
    fi
  done
done

if ((merge)); then
  # Edge coverage only (no hit counts) keeps the checked-in corpus small.
  for h in "${harnesses[@]}"; do
    "$out/$h" -merge=1 -use_counters=0 -max_len=512 "tests/fuzz/corpus/$h" "$out/corpus/$h" >>"$out/logs/$h.log" 2>&1
  done
fi
! grep -q FAILED "$out"/logs/*.result
