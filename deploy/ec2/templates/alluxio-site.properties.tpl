# Rendered by deploy/ec2/eccache-ec2.sh for run @@RUN_ID@@ (role @@ROLE@@).
alluxio.master.hostname=@@MASTER_HOST@@
alluxio.master.mount.table.root.ufs=s3://@@BUCKET@@/data/
alluxio.underfs.s3.endpoint.region=@@REGION@@
alluxio.worker.ramdisk.size=@@WORKER_CACHE@@
alluxio.worker.tieredstore.levels=1
alluxio.user.short.circuit.enabled=false
alluxio.user.file.passive.cache.enabled=false
alluxio.master.worker.timeout=1min
# The paper's setup: RS(10,1) plus extra parities for popular objects within a 15% budget.
alluxio.master.eccache.default.k=10
alluxio.master.eccache.default.r=1
alluxio.master.eccache.memory.overhead=0.15
# The benchmark stores selective replication and SP-Cache objects under their own namespaces.
alluxio.master.eccache.namespace.schemes=sr=replica,sp=partition
alluxio.master.eccache.popularity.period=5s
alluxio.master.eccache.retune.interval=1s
