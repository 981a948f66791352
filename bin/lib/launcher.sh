# What the bin/ launchers share; sourced by them, not a command.
#   eccache_root                  the clone's root
#   eccache_build_if_stale ...    builds a module on first use, or when a source is newer than its build
#   eccache_java17_opts           what Alluxio 2.9 (built for Java 8/11) needs opened on Java 17
#   eccache_conf_opts             -Dalluxio.conf.dir from $ALLUXIO_CONF_DIR or $ALLUXIO_HOME/conf, if set
#   eccache_extra_opts            $ECCACHE_JAVA_OPTS, split on spaces
# shellcheck shell=bash

eccache_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# eccache_build_if_stale NAME TARGET MODULE: unless TARGET/lib exists and no source under */src/ is
# newer than TARGET/classes, installs what the build needs and runs mvn -DskipTests install -pl
# MODULE -am. With ECCACHE_NO_BUILD set (tests that run the launchers on a finished build), fails
# instead of building.
eccache_build_if_stale() {
  local name=$1 target=$2 module=$3
  if [ -d "$target/lib" ] && [ -z "$(find "$eccache_root" -path "$eccache_root/*/src/*" \
      -newer "$target/classes" -type f -print -quit 2>/dev/null)" ]; then
    return 0
  fi
  if [ -n "${ECCACHE_NO_BUILD:-}" ]; then
    echo "$name: $module is not built, or older than its sources, and ECCACHE_NO_BUILD is set: run mvn -DskipTests install -pl $module -am" >&2
    exit 1
  fi
  bash "$eccache_root/scripts/install-deps.sh"
  echo "$name: building $module (mvn -DskipTests install -pl $module -am; the first build downloads dependencies)..." >&2
  rm -rf "${target:?}/lib" # copy-dependencies only adds: start from the current runtime classpath
  (cd "$eccache_root" && mvn -q -B -ntp -DskipTests install -pl "$module" -am)
  # The commit built, for results stamped by a copy of this build run outside the work tree.
  local commit
  if commit=$(git -C "$eccache_root" rev-parse HEAD 2>/dev/null); then
    if [ -n "$(git -C "$eccache_root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
      commit="$commit-dirty"
    fi
    echo "$commit" > "$target/classes/eccache-build-commit"
  fi
  touch "$target/classes" # the build is as new as the sources now, even if no class changed
}

# shellcheck disable=SC2034 # used by the launchers that source this file
eccache_java17_opts=(
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true)

# The cluster commands read Alluxio's own alluxio-site.properties: from $ALLUXIO_CONF_DIR (or
# $ALLUXIO_HOME/conf) when set, else from Alluxio's defaults (~/.alluxio/, /etc/alluxio/).
eccache_conf_opts=()
eccache_conf_dir=${ALLUXIO_CONF_DIR:-${ALLUXIO_HOME:+$ALLUXIO_HOME/conf}}
if [ -n "$eccache_conf_dir" ]; then
  eccache_conf_opts+=("-Dalluxio.conf.dir=$eccache_conf_dir")
fi

# shellcheck disable=SC2034
read -r -a eccache_extra_opts <<< "${ECCACHE_JAVA_OPTS:-}"
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
