#!/usr/bin/env bash
# Reed-Solomon coder benchmark: the C reference (ISA-L called directly, and memcpy) and the JMH
# benchmark of eccache's native coder, its Java twin and Hadoop's pure-Java coder, in one run.
#
#   bash benchmarks/run-coder-bench.sh         full profile -> benchmarks/results/coder.{md,csv}, *.png
#   bash benchmarks/run-coder-bench.sh quick   4 KiB + 1 MiB, hot -> benchmarks/target/coder-quick/
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-full}
case "$profile" in
  full) out=benchmarks/results ;;
  quick) out=benchmarks/target/coder-quick ;;
  *) echo "usage: $0 [full|quick]" >&2; exit 2 ;;
esac

bash scripts/install-deps.sh
if [ ! -f benchmarks/target/benchmarks.jar ] || [ -n "$(find isal-jni/src benchmarks/src -newer benchmarks/target/benchmarks.jar -type f | head -1)" ]; then
  echo "== building (mvn -DskipTests install)" >&2
  mvn -q -B -DskipTests install
fi
mkdir -p benchmarks/target "$out"
gcc -O2 -Wall -Wextra -o benchmarks/target/isal_bench benchmarks/src/main/c/isal_bench.c -lisal

echo "== C reference: isal_bench ($profile)" >&2
c_flags=()
[ "$profile" = quick ] && c_flags=(-q -W hot)
benchmarks/target/isal_bench "${c_flags[@]}" > benchmarks/target/isal_bench.csv

echo "== JMH: CoderBenchmark ($profile)" >&2
java -cp benchmarks/target/benchmarks.jar io.eccache.benchmarks.coder.CoderComparison \
  benchmarks/target/isal_bench.csv "$out" "$profile"
echo "== report: $out/coder.md" >&2
