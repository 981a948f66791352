#!/usr/bin/env bash
# Every published number from one commit: runs each result family's documented command, in a
# clean clone of one commit, into one directory; then `--publish DIR` copies that directory over
# benchmarks/results. Run as root on a machine left to itself (tc shapes the links; two timing runs
# at once on 2 cores measure nothing).
#
#   bash benchmarks/run-release.sh [--commit REV] [--out DIR] [FAMILY...]   run (all families by default)
#   bash benchmarks/run-release.sh --publish DIR                             DIR's results replace
#                                                                            benchmarks/results
#
# Families, in the order they run (sim's validation reads bench's skew run, so bench comes first):
#   bench sim agar agar-sim datapath logecmem logecmem-long packed-bench packed-bench-processes
#   packed-check demo check coder
# The clone lives in DIR/clone and results in DIR/results, outside any work tree, so each run is
# stamped with the commit and a clean tree (RunStamp: no "-dirty"). A family already finished in
# DIR (its results present) is skipped, so a run stopped part-way resumes where it stopped.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
all=(bench sim agar agar-sim datapath logecmem logecmem-long packed-bench packed-bench-processes
  packed-check demo check coder)

usage() {
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

if [ "${1:-}" = --publish ]; then
  [ $# -eq 2 ] || usage
  src=$2/results
  [ -d "$src" ] || { echo "run-release: no results in $src" >&2; exit 2; }
  commits=$({ grep -rhoE "Commit \`[0-9a-f]{40}(-dirty)?\`" "$src" --include=summary.md || true; } \
    | sort -u)
  if [ -z "$commits" ] || [ "$(printf '%s\n' "$commits" | wc -l)" -ne 1 ] \
    || printf '%s' "$commits" | grep -q dirty; then
    echo "run-release: the summaries in $src are not from one clean commit:" >&2
    printf '%s\n' "$commits" >&2
    exit 1
  fi
  # Whole: a directory the release did not produce (an older scratch run) must not stay published.
  rm -rf "$here/benchmarks/results"
  cp -r "$src" "$here/benchmarks/results"
  echo "run-release: published $src ($commits) into benchmarks/results" >&2
  exit 0
fi

commit=HEAD
out=
families=()
while [ $# -gt 0 ]; do
  case "$1" in
    --commit) commit=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "run-release: unknown option $1" >&2; usage ;;
    *)
      printf '%s\n' "${all[@]}" | grep -qx "$1" || { echo "run-release: no family $1" >&2; usage; }
      families+=("$1"); shift ;;
  esac
done
[ ${#families[@]} -gt 0 ] || families=("${all[@]}")
rev=$(git -C "$here" rev-parse --verify "$commit^{commit}")
out=${out:-$here/benchmarks/target/release-${rev:0:7}}
mkdir -p "$out/results"
out=$(cd "$out" && pwd)
res=$out/results

if [ ! -d "$out/clone/.git" ]; then
  git clone -q "$here" "$out/clone"
fi
git -C "$out/clone" checkout -q --detach "$rev"
if [ -n "$(git -C "$out/clone" status --porcelain --untracked-files=no)" ]; then
  echo "run-release: $out/clone differs from $rev; remove it and run again" >&2
  exit 1
fi
cd "$out/clone"
bench=bin/eccache-bench
log() { echo "== run-release $(date -u +%H:%M:%S) $*" >&2; }

run() { # FAMILY RESULT-DIR COMMAND...: skipped when RESULT-DIR holds a summary already
  local family=$1 dir=$2
  shift 2
  if [ -f "$dir/summary.md" ]; then
    log "$family: done before ($dir), skipped"
    return
  fi
  log "$family: $*"
  local began=$SECONDS
  "$@"
  log "$family: finished in $(( (SECONDS - began) / 60 )) min"
}

for f in "${families[@]}"; do
  case "$f" in
    bench)
      # One scenario at a time, so a stopped run resumes at the scenario it stopped in.
      for scenario in skew background failure size k delta stragglers slow-server writes spcache; do
        run "bench $scenario" "$res/$scenario" $bench bench --profile quick --scenario "$scenario" \
          --out "$res"
      done
      # Where SP-Cache may win: larger objects and heavier skew (the outside audit's workload).
      run "bench skew, 16 MiB at Zipf 1.1" "$res/skew-large/skew" $bench bench --profile quick \
        --scenario skew --zipf 1.1 --object-mib 16 --out "$res/skew-large" ;;
    sim) run sim "$res/sim/validate" $bench sim --measured "$res/skew/raw.csv" --out "$res/sim" ;;
    agar) run agar "$res/agar" $bench agar --out "$res/agar" ;;
    agar-sim) run agar-sim "$res/agar-sim" $bench agar-sim --out "$res/agar-sim" ;;
    datapath) run datapath "$res/datapath" $bench datapath --out "$res/datapath" ;;
    # logecmem/summary.md comes last (table2 first): a stopped run is not taken as done.
    logecmem) run logecmem "$res/logecmem" $bench logecmem --profile quick --out "$res/logecmem" ;;
    logecmem-long)
      # Fig. 11's (6,3) at 80:20 and 50:50 with 10x the requests: the length is not the reason.
      run logecmem-long "$res/logecmem/fig11-6-3-long" $bench logecmem --figure fig11 --codes 6-3 \
        --mix 'read:update 50:50' --mix 'read:update 80:20' --records 20000 --operations 20000 \
        --out "$res/logecmem/fig11-6-3-long" ;;
    packed-bench)
      run packed-bench "$res/logecmem/tier2" $bench packed-bench --profile quick \
        --out "$res/logecmem/tier2" ;;
    packed-bench-processes)
      run packed-bench-processes "$res/logecmem/tier2-processes" $bench packed-bench --profile quick \
        --workers-as processes --out "$res/logecmem/tier2-processes" ;;
    packed-check)
      run packed-check "$res/packed-check" $bench packed-check --values 100000 --ops 100000 \
        --out "$res/packed-check" ;;
    demo) run demo "$res/demo" $bench demo --repeats 3 --out "$res/demo" ;;
    check)
      # The checker prints its verdict; the summary stamps it as the others are stamped.
      if [ ! -f "$res/check/summary.md" ]; then
        mkdir -p "$res/check"
        log "check: $bench check --seconds 600"
        began=$(date -u +%Y-%m-%dT%H:%M:%SZ)
        $bench check --seconds 600 > "$res/check/output.txt" 2>&1
        { echo "# The concurrency checker"; echo
          echo "Run: Commit \`$rev\`; command \`bin/eccache-bench check --seconds 600\`; started $began."
          echo; echo '```'; tail -n 40 "$res/check/output.txt"; echo '```'; } > "$res/check/summary.md"
      fi ;;
    coder)
      if [ ! -f "$res/coder.md" ]; then
        log "coder: bash benchmarks/run-coder-bench.sh"
        bash benchmarks/run-coder-bench.sh
        cp benchmarks/results/coder.md benchmarks/results/coder.csv benchmarks/results/coder-*.png "$res/"
        git checkout -q -- benchmarks/results # the clone stays clean for what runs after
      fi ;;
  esac
done
log "all done: bash benchmarks/run-release.sh --publish $out"
