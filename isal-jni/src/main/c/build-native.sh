#!/usr/bin/env bash
# Builds eccache's JNI library against Debian's libisal-dev and puts it, with the ISA-L shared library
# it needs and ISA-L's license, where the jar picks them up (native/linux-x86_64/). Run by Maven
# (isal-jni, phase process-classes); arguments: <JNI header dir> <output dir> <java.home>.
set -euo pipefail

header_dir=$1
out_dir=$2
java_home=$3
src_dir=$(cd "$(dirname "$0")" && pwd)

die() {
  echo "eccache isal-jni: $*" >&2
  exit 1
}

command -v gcc >/dev/null || die "gcc not found. Install it: apt-get install -y gcc (or run .ci/run, which does)."
[ -f /usr/include/isa-l/erasure_code.h ] ||
  die "ISA-L headers not found (/usr/include/isa-l/erasure_code.h). Install them: apt-get install -y libisal-dev"
isal_so=$(gcc -print-file-name=libisal.so.2)
[ -f "$isal_so" ] || die "libisal.so.2 not found by gcc. Install it: apt-get install -y libisal-dev"
[ -f "$java_home/include/jni.h" ] || die "jni.h not found under $java_home/include: build with a JDK, not a JRE."

mkdir -p "$out_dir"
gcc -std=gnu11 -O2 -fPIC -shared -Wall -Wextra -Werror \
  -I"$header_dir" -I"$java_home/include" -I"$java_home/include/linux" \
  -o "$out_dir/libeccache-isal-jni.so" "$src_dir/isal_jni.c" \
  -static-libgcc -Wl,--version-script="$src_dir/exports.map" -Wl,-z,defs -Wl,-rpath,'$ORIGIN' \
  -lisal
# Ship the exact ISA-L the library was linked against (Debian has no static libisal), with its BSD-3 notice.
cp -L "$isal_so" "$out_dir/libisal.so.2"
cp /usr/share/doc/libisal2/copyright "$out_dir/LICENSE-isa-l.txt" 2>/dev/null ||
  cp /usr/share/doc/libisal-dev/copyright "$out_dir/LICENSE-isa-l.txt"
echo "eccache isal-jni: built $out_dir/libeccache-isal-jni.so against $(readlink -f "$isal_so")"
