#!/bin/bash
# cloud-init user data for an eccache @@ROLE@@ of run @@RUN_ID@@ (rendered by eccache-ec2.sh).
# Amazon Linux 2023: Java 11, Alluxio 2.9.6 (checked against its pinned SHA-512), eccache's jars
# from the run's bucket; then the role's process, waited for until it serves. eccache-ec2.sh sends
# the benchmark only after `cloud-init status --wait` succeeded on every instance, so any failure
# here (a checksum mismatch, a process that does not come up) fails the run, which is torn down.
# The instance profile gives S3 access (and SSM, which runs the benchmark on clients).
set -euxo pipefail
dnf install -y -q java-11-amazon-corretto-headless
cd /opt
curl -fsSL -o /opt/alluxio-2.9.6-bin.tar.gz "@@ALLUXIO_URL@@"
echo "@@ALLUXIO_SHA512@@  /opt/alluxio-2.9.6-bin.tar.gz" | sha512sum -c -
tar xzf /opt/alluxio-2.9.6-bin.tar.gz
rm /opt/alluxio-2.9.6-bin.tar.gz
ln -sfn /opt/alluxio-2.9.6 /opt/alluxio
mkdir -p /opt/eccache/lib /opt/eccache/results
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-coordinator.jar" /opt/eccache/lib/
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-policy.jar" /opt/eccache/lib/
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-worker.jar" /opt/eccache/lib/
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-lognode.jar" /opt/eccache/lib/
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-shell-alluxio.jar" /opt/eccache/lib/
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-bench.tar.gz" /opt/eccache/
tar xzf /opt/eccache/eccache-bench.tar.gz -C /opt/eccache
cat > /opt/alluxio/conf/alluxio-site.properties <<'PROPERTIES'
@@SITE_PROPERTIES@@
PROPERTIES
echo 'export ALLUXIO_CLASSPATH=/opt/eccache/lib/*' >> /opt/alluxio/conf/alluxio-env.sh

# Waits (at most 5 minutes) until the process answers on its web port.
serving() {
  for _ in $(seq 60); do
    if curl -fsS -o /dev/null "http://localhost:$1/api/v1/$2/info"; then
      return 0
    fi
    sleep 5
  done
  echo "the $2 did not answer on port $1 within 5 minutes: see /opt/alluxio/logs/" >&2
  return 1
}

role="@@ROLE@@"
case "$role" in
  master)
    sed -i "s/^alluxio.master.hostname=.*/alluxio.master.hostname=$(hostname -f)/" \
      /opt/alluxio/conf/alluxio-site.properties
    /opt/alluxio/bin/alluxio formatJournal
    /opt/alluxio/bin/alluxio-start.sh master
    serving 19999 master
    ;;
  worker)
    /opt/alluxio/bin/alluxio-start.sh worker Mount
    serving 30000 worker
    ;;
  client)
    # The benchmark is started later through SSM (eccache-ec2.sh bench).
    ;;
esac
