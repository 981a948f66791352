#!/usr/bin/env bash
# The whole test suite: installs what the build needs (scripts/install-deps.sh), then builds every
# module (including the native ISA-L library) and runs all tests. Fails if the native coder was
# built but did not load, so the suite never silently tests the Java fallback alone.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
exec mvn -B -ntp verify "$@"
