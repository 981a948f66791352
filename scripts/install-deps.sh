#!/usr/bin/env bash
# Makes sure this machine has what eccache builds and tests with: a JDK (17+), Maven, gcc, Debian's
# libisal-dev (Intel ISA-L headers and library), memcached (the DRAM nodes of LogECMem's testbed:
# its tests and benchmarks start their own servers, never the system service), and the tools the
# deployment tests run: docker-compose (validates docker-compose.yml; no Docker engine needed)
# and the shell linter, shellcheck. Installs what is missing with apt-get when run as root on
# Debian/Ubuntu; otherwise says exactly what to install and exits non-zero.
set -euo pipefail

missing=()
need() { # need <package> <test command...>
  local pkg=$1
  shift
  "$@" >/dev/null 2>&1 || missing+=("$pkg")
}
need openjdk-17-jdk-headless bash -c 'command -v javac && javac -version 2>&1 | grep -Eq "javac (1[7-9]|[2-9][0-9])"'
need maven command -v mvn
need gcc command -v gcc
need libc6-dev test -f /usr/include/stdio.h
need libisal-dev test -f /usr/include/isa-l/erasure_code.h
need memcached command -v memcached
need docker-compose command -v docker-compose
need shellcheck command -v shellcheck

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "eccache: installing missing build dependencies: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "eccache: cannot install them here (needs root and apt-get). Run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "eccache: installed ${missing[*]}" >&2
