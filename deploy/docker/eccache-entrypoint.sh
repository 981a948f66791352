#!/usr/bin/env bash
# Entrypoint of eccache's Alluxio image, in front of Alluxio's own /entrypoint.sh:
# - `master[-only] --no-format` (docker-compose.yml's master) formats the journal when its
#   directory is empty, that is on the first start only, and never again: object layouts and the
#   namespace survive `docker-compose down` / `up`. (Alluxio's entrypoint, without --no-format,
#   formats on every start.)
# - `worker[-only]` keeps its cache tier in a directory of its own on a volume
#   ($ECCACHE_WORKER_STORAGE/<hostname>) instead of /dev/shm: eccache PUTs are cache-only by
#   default, so the cached splits are the data.
# Everything else goes to Alluxio's entrypoint unchanged.
set -Eeuo pipefail

alluxio_entrypoint=${ECCACHE_ALLUXIO_ENTRYPOINT:-/entrypoint.sh}
alluxio=${ECCACHE_ALLUXIO_BIN:-/opt/alluxio/bin/alluxio}
# A directory inside the journal volume, not its mount point: formatting deletes and recreates it.
# It must be alluxio.master.journal.folder (docker-compose.yml sets both).
journal=${ECCACHE_JOURNAL_DIR:-/journal/master}

case ${1:-} in
  master | master-only)
    if [ "${2:-}" = --no-format ]; then
      mkdir -p "$journal"
      if [ -z "$(ls -A "$journal")" ]; then
        echo "eccache-entrypoint: the journal $journal is empty: formatting it (first start)" >&2
        "$alluxio" formatJournal
      else
        echo "eccache-entrypoint: keeping the journal in $journal" >&2
      fi
    fi
    ;;
  worker | worker-only)
    # Alluxio's scripts make ALLUXIO_RAM_FOLDER the top tier's directory; its entrypoint keeps a
    # value that is set.
    ALLUXIO_RAM_FOLDER=${ECCACHE_WORKER_STORAGE:-/storage}/$HOSTNAME
    export ALLUXIO_RAM_FOLDER
    mkdir -p "$ALLUXIO_RAM_FOLDER"
    ;;
esac
exec "$alluxio_entrypoint" "$@"
