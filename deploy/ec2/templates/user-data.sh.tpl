#!/bin/bash
# cloud-init user data for an eccache @@ROLE@@ of run @@RUN_ID@@ (rendered by eccache-ec2.sh).
# Amazon Linux 2023: Java 11, Alluxio 2.9.6, eccache's jars from the run's bucket; then the role's
# process. The instance profile gives S3 access (and SSM, which runs the benchmark on clients).
set -euxo pipefail
dnf install -y -q java-11-amazon-corretto-headless
cd /opt
curl -fsSL https://downloads.alluxio.io/downloads/files/2.9.6/alluxio-2.9.6-bin.tar.gz | tar xz
ln -sfn /opt/alluxio-2.9.6 /opt/alluxio
mkdir -p /opt/eccache/lib /opt/eccache/results
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-coordinator.jar" /opt/eccache/lib/
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-policy.jar" /opt/eccache/lib/
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-shell-alluxio.jar" /opt/eccache/lib/
aws s3 cp --quiet "s3://@@BUCKET@@/eccache/eccache-bench.tar.gz" /opt/eccache/
tar xzf /opt/eccache/eccache-bench.tar.gz -C /opt/eccache
cat > /opt/alluxio/conf/alluxio-site.properties <<'PROPERTIES'
@@SITE_PROPERTIES@@
PROPERTIES
echo 'export ALLUXIO_CLASSPATH=/opt/eccache/lib/*' >> /opt/alluxio/conf/alluxio-env.sh
role="@@ROLE@@"
case "$role" in
  master)
    sed -i "s/^alluxio.master.hostname=.*/alluxio.master.hostname=$(hostname -f)/" \
      /opt/alluxio/conf/alluxio-site.properties
    /opt/alluxio/bin/alluxio format
    /opt/alluxio/bin/alluxio-start.sh master
    ;;
  worker)
    /opt/alluxio/bin/alluxio-start.sh worker Mount
    ;;
  client)
    # The benchmark is started later through SSM (eccache-ec2.sh bench).
    ;;
esac
