package io.eccache.testkit;

import alluxio.AlluxioURI;
import alluxio.client.file.FileSystem;
import alluxio.conf.PropertyKey;
import alluxio.exception.AlluxioException;
import alluxio.grpc.CreateDirectoryPOptions;
import alluxio.grpc.MountPOptions;
import alluxio.grpc.WritePType;
import io.eccache.localcluster.DelayProxy;
import io.eccache.localcluster.S3ProxyServer;
import io.eccache.policy.agar.Region;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Distant S3 regions on this machine, for Agar's erasure-coded under store (issue 16): each region is
 * its own S3 server (s3proxy, a child process, one bucket, its own directory) reachable through a
 * {@link DelayProxy} on its own loopback address {@code 127.0.100.(i+1)}, which delays each direction
 * by a fixed time and optionally limits its rate. {@link #mount(FileSystem)} mounts every region's
 * bucket in a running Alluxio cluster at {@code /eccache-regions/<slug>} with per-mount S3 options
 * pointing at the region's proxy, so Alluxio's workers read and write the region over the delay.
 *
 * <p><b>Latency model.</b> A region's {@link Spec#readLatency() read latency} is what reading one
 * small chunk from it should cost. A worker's read of one uncached small file from S3 is
 * {@link #ROUND_TRIPS_PER_READ} HTTP round trip (one ranged GET, measured by
 * {@code LoopbackRegionsTest}), and each round trip crosses the proxy twice, so the proxy delays
 * each direction by {@code readLatency / (2 * ROUND_TRIPS_PER_READ)}. The TCP handshake is not
 * delayed (the proxy accepts at once), and the S3 client reuses its connections.
 *
 * <p>{@link #setDown(String, boolean)} plays a region outage: its proxy closes every connection and
 * refuses new ones; the S3 server and its objects stay. {@link #close()} stops every proxy and
 * server and removes their directories; unmount first ({@link #unmount(FileSystem)}) when the
 * cluster outlives the regions.
 */
public final class LoopbackRegions implements AutoCloseable {
  /** Where regions are mounted in Alluxio's namespace. */
  public static final String MOUNT_ROOT = "/eccache-regions";
  /** HTTP round trips an Alluxio worker makes to S3 to read one small uncached file. */
  public static final int ROUND_TRIPS_PER_READ = 1;

  private static final Logger LOG = LoggerFactory.getLogger(LoopbackRegions.class);

  /**
   * One region to run: a name, the time one chunk read from it should take, and the rate of each
   * direction in bytes per second (0: unlimited).
   */
  public static final class Spec {
    private final String name;
    private final Duration readLatency;
    private final long bytesPerSecond;

    /**
     * @throws IllegalArgumentException for an empty name, a negative latency or rate
     */
    public Spec(String name, Duration readLatency, long bytesPerSecond) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(readLatency, "readLatency");
      if (slug(name).isEmpty()) {
        throw new IllegalArgumentException("a region needs a name with a letter or digit: '" + name
            + "'");
      }
      if (readLatency.isNegative()) {
        throw new IllegalArgumentException("region " + name + ": negative read latency "
            + readLatency);
      }
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("region " + name + ": bytesPerSecond must be >= 0, not "
            + bytesPerSecond);
      }
      this.name = name;
      this.readLatency = readLatency;
      this.bytesPerSecond = bytesPerSecond;
    }

    /** The region's name, e.g. "N. Virginia"; paths use its {@link RunningRegion#slug()}. */
    public String name() {
      return name;
    }

    /** What reading one small chunk from the region should cost. */
    public Duration readLatency() {
      return readLatency;
    }

    /** Rate of each direction, bytes per second; 0 is unlimited. */
    public long bytesPerSecond() {
      return bytesPerSecond;
    }
  }

  /** A running region. */
  public static final class RunningRegion {
    private final Spec spec;
    private final String slug;
    private final S3ProxyServer s3;
    private final DelayProxy proxy;

    private RunningRegion(Spec spec, String slug, S3ProxyServer s3, DelayProxy proxy) {
      this.spec = spec;
      this.slug = slug;
      this.s3 = s3;
      this.proxy = proxy;
    }

    /** What the region was started from. */
    public Spec spec() {
      return spec;
    }

    /** The name in paths: lower case, runs of other characters than letters and digits as '-'. */
    public String slug() {
      return slug;
    }

    /** The region's one bucket: {@code region-<slug>}. */
    public String bucket() {
      return "region-" + slug;
    }

    /** Where the region is mounted in Alluxio: {@code /eccache-regions/<slug>}. */
    public String mountPoint() {
      return MOUNT_ROOT + "/" + slug;
    }

    /** The delayed endpoint Alluxio uses: http://127.0.100.x:port. */
    public String endpoint() {
      InetSocketAddress a = proxy.address();
      return "http://" + a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** The region's S3 server (undelayed, on 127.0.0.1). */
    public S3ProxyServer s3() {
      return s3;
    }

    /** The delay in front of it. */
    public DelayProxy proxy() {
      return proxy;
    }

    /** Where the object an Alluxio path under {@link #mountPoint()} maps to lives on disk. */
    public Path objectFile(String alluxioPath) {
      String prefix = mountPoint() + "/";
      if (!alluxioPath.startsWith(prefix)) {
        throw new IllegalArgumentException(alluxioPath + " is not under " + prefix);
      }
      return s3.dataDir().resolve(bucket()).resolve(alluxioPath.substring(prefix.length()));
    }
  }

  private final Path dir;
  private final Map<String, RunningRegion> regions = new LinkedHashMap<>();
  private boolean deleteDir;

  private LoopbackRegions(Path dir) {
    this.dir = dir;
  }

  /** Specs for Agar's regions ({@code AgarRegions.fromFrankfurt(scale)}), all at one rate. */
  public static List<Spec> specs(List<Region> regions, long bytesPerSecond) {
    List<Spec> specs = new ArrayList<>();
    for (Region r : regions) {
      specs.add(new Spec(r.name(), r.readLatency(), bytesPerSecond));
    }
    return specs;
  }

  /**
   * Starts the regions: an S3 server and a delay proxy each, under a new directory in {@code base}
   * (null: the testkit's default base). Names must differ after {@link RunningRegion#slug()}.
   *
   * @throws IllegalArgumentException for no regions, more than 250, or two with one slug
   */
  public static LoopbackRegions start(Path base, List<Spec> specs) throws IOException {
    if (specs.isEmpty() || specs.size() > 250) {
      throw new IllegalArgumentException("1..250 regions, not " + specs.size());
    }
    Set<String> slugs = new HashSet<>();
    for (Spec s : specs) {
      if (!slugs.add(slug(s.name()))) {
        throw new IllegalArgumentException("two regions named '" + slug(s.name()) + "' in paths");
      }
    }
    Path root = base != null ? base : EmbeddedCluster.defaultBase();
    LoopbackRegions lr = new LoopbackRegions(Files.createTempDirectory(root, "eccache-regions-"));
    lr.deleteDir = true;
    try {
      for (int i = 0; i < specs.size(); i++) {
        lr.startRegion(i, specs.get(i));
      }
      return lr;
    } catch (IOException | RuntimeException e) {
      lr.close();
      throw e;
    }
  }

  private void startRegion(int i, Spec spec) throws IOException {
    String slug = slug(spec.name());
    String bucket = "region-" + slug;
    S3ProxyServer s3 = S3ProxyServer.start(dir.resolve(slug), List.of(bucket));
    DelayProxy proxy;
    try {
      Duration oneWay = spec.readLatency().dividedBy(2L * ROUND_TRIPS_PER_READ);
      proxy = DelayProxy.start(new InetSocketAddress(InetAddress.getByName("127.0.100." + (i + 1)), 0),
          new InetSocketAddress(InetAddress.getLoopbackAddress(), s3.port()), oneWay,
          spec.bytesPerSecond());
    } catch (IOException | RuntimeException e) {
      s3.close();
      throw e;
    }
    regions.put(spec.name(), new RunningRegion(spec, slug, s3, proxy));
  }

  /** The regions, in the order given. */
  public List<RunningRegion> regions() {
    return Collections.unmodifiableList(new ArrayList<>(regions.values()));
  }

  /** The region of this name. */
  public RunningRegion region(String name) {
    RunningRegion r = regions.get(name);
    if (r == null) {
      throw new IllegalArgumentException("no region '" + name + "'; regions: " + regions.keySet());
    }
    return r;
  }

  /** Plays an outage of the region (down) or its end (up). */
  public void setDown(String name, boolean down) throws IOException {
    region(name).proxy().setDown(down);
  }

  /**
   * The per-mount options of a region: the same S3 settings as {@code EmbeddedCluster}'s root mount
   * but the region's delayed endpoint, plus {@code extra} (e.g. shorter S3 timeouts and retries).
   */
  public static Map<String, String> mountOptions(RunningRegion region, Map<String, String> extra) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(PropertyKey.UNDERFS_S3_ENDPOINT.getName(), region.endpoint());
    p.put(PropertyKey.UNDERFS_S3_ENDPOINT_REGION.getName(), "us-east-1");
    p.put(PropertyKey.UNDERFS_S3_DISABLE_DNS_BUCKETS.getName(), "true");
    p.put(PropertyKey.UNDERFS_S3_INHERIT_ACL.getName(), "false");
    p.put(PropertyKey.UNDERFS_S3_SECURE_HTTP_ENABLED.getName(), "false");
    p.put(PropertyKey.S3A_ACCESS_KEY.getName(), S3ProxyServer.IDENTITY);
    p.put(PropertyKey.S3A_SECRET_KEY.getName(), S3ProxyServer.CREDENTIAL);
    p.putAll(extra);
    return p;
  }

  /**
   * Per-mount S3 client settings that make a read from a region that is down fail quickly: short
   * socket and request timeouts (Alluxio's defaults: 50 s and 1 min). The SDK's retries stay (3):
   * with none, a request sent on a kept-alive connection the server has just closed fails with "The
   * target server failed to respond" (s3proxy's Jetty closes a connection whose request body it
   * did not read in time, which the delay makes common), and a refused connect fails in
   * milliseconds anyway.
   */
  public static final Map<String, String> FAIL_FAST = Map.of(
      PropertyKey.UNDERFS_S3_MAX_ERROR_RETRY.getName(), "3",
      PropertyKey.UNDERFS_S3_SOCKET_TIMEOUT.getName(), "5s",
      PropertyKey.UNDERFS_S3_REQUEST_TIMEOUT.getName(), "5s");

  /** {@link #mount(FileSystem, Map)} with no extra options. */
  public void mount(FileSystem fs) throws IOException {
    mount(fs, Map.of());
  }

  /**
   * Mounts every region's bucket at its {@link RunningRegion#mountPoint()} in the cluster behind
   * {@code fs}, creating {@link #MOUNT_ROOT} first when missing.
   */
  public void mount(FileSystem fs, Map<String, String> extraOptions) throws IOException {
    try {
      AlluxioURI root = new AlluxioURI(MOUNT_ROOT);
      if (!fs.exists(root)) {
        fs.createDirectory(root, CreateDirectoryPOptions.newBuilder().setAllowExists(true)
            .setWriteType(WritePType.THROUGH).build());
      }
      for (RunningRegion r : regions.values()) {
        fs.mount(new AlluxioURI(r.mountPoint()), new AlluxioURI("s3://" + r.bucket() + "/"),
            MountPOptions.newBuilder().putAllProperties(mountOptions(r, extraOptions)).build());
        LOG.info("region {} mounted at {} over {} ({} one way)", r.spec().name(), r.mountPoint(),
            r.endpoint(), r.proxy().oneWayDelay());
      }
    } catch (AlluxioException e) {
      throw new IOException("mounting the regions failed: " + e.getMessage(), e);
    }
  }

  /**
   * Makes every worker open its under-store client for every region, one worker and region at a
   * time each (pairs in parallel), before any concurrent use: a small file written THROUGH to the
   * region through that worker, then deleted.
   *
   * <p>Why: Alluxio 2.9.6's {@code UfsManager.UfsClient.acquireUfsResource()} fetches the mount's
   * shared UFS and, when two threads do so at once for the first time, the one that loses the
   * race "closes the extra UFS", which is the same shared instance: the worker's S3 client for
   * that region is shut down for good, and every later write through it fails with a
   * RejectedExecutionException from the S3 transfer manager. One first use per worker and mount,
   * alone, sets the client's UFS and closes that window.
   */
  public void warm(FileSystem fs, List<alluxio.wire.WorkerNetAddress> workers) throws IOException {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
        Math.max(1, Math.min(16, workers.size() * regions.size())));
    try {
      List<java.util.concurrent.Future<?>> pairs = new ArrayList<>();
      for (RunningRegion r : regions.values()) {
        for (alluxio.wire.WorkerNetAddress w : workers) {
          pairs.add(pool.submit(() -> {
            AlluxioURI probe = new AlluxioURI(r.mountPoint() + "/.eccache-warm-"
                + w.getHost() + "-" + w.getRpcPort());
            try (alluxio.client.file.FileOutStream out = fs.createFile(probe,
                alluxio.grpc.CreateFilePOptions.newBuilder().setWriteType(WritePType.THROUGH)
                    .setOverwrite(true)
                    .setWorkerLocation(alluxio.grpc.GrpcUtils.toProto(w)).build())) {
              out.write(1);
            }
            fs.delete(probe);
            return null;
          }));
        }
      }
      for (java.util.concurrent.Future<?> f : pairs) {
        try {
          f.get(2, java.util.concurrent.TimeUnit.MINUTES);
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IOException("warming a region's under-store client on a worker failed: "
              + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
          throw new IOException("warming a region's under-store client on a worker took more"
              + " than 2 minutes: check the region's S3 server and the worker");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while warming the regions", e);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Unmounts every region that is mounted (the cluster may outlive the regions). */
  public void unmount(FileSystem fs) throws IOException {
    try {
      for (RunningRegion r : regions.values()) {
        AlluxioURI point = new AlluxioURI(r.mountPoint());
        if (fs.getMountTable(false).containsKey(point.getPath())) {
          fs.unmount(point);
        }
      }
    } catch (AlluxioException e) {
      throw new IOException("unmounting the regions failed: " + e.getMessage(), e);
    }
  }

  /** Stops every proxy and S3 server and removes the regions' directory. */
  @Override
  public void close() {
    for (RunningRegion r : regions.values()) {
      r.proxy().close();
      r.s3().close();
    }
    regions.clear();
    if (deleteDir) {
      EmbeddedCluster.deleteRecursively(dir);
    }
  }

  /** Lower case; runs of characters other than ASCII letters and digits become one '-'. */
  static String slug(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
  }
}
