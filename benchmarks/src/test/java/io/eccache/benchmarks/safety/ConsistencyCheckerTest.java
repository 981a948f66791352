package io.eccache.benchmarks.safety;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.client.EcCacheClient;
import io.eccache.client.RedundancyMaintainer;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.common.WorkerKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestUsers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The concurrency checker, short, on a real cluster: every read is one whole version of its key,
 * no quiet read is stale, and the run ends on its own. `eccache check` runs it for minutes.
 */
class ConsistencyCheckerTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(5)
      .workerMemoryBytes(192L << 20)
      .property(MasterKeys.CELL_SIZE, "64KB").property(ClientKeys.STREAM_WINDOW, "200KB")
      // Packed keys (pk/...): RS(3, 2) stripes of 1 KiB units, a log node on every worker.
      .property(MasterKeys.PACKED_NAMESPACES, "pk=packed-3-2:1KB")
      .property(WorkerKeys.LOG_NODE_ENABLED, true).property(WorkerKeys.LOG_NODE_FSYNC, false));

  @Test
  void concurrentPutsGetsAndDeletesNeverMixLoseOrHang() throws Exception {
    try (EcCacheClient cache = EcCacheClient.create(CLUSTER.cluster().fileSystemContext())) {
      check(cache, "check/", Long.getLong("eccache.check.ms", 12_000L));
    }
  }

  /** The same, shorter, as a plain user (alice) in a directory of her own. */
  @Test
  void aPlainUserToo() throws Exception {
    TestUsers.directory(CLUSTER.cluster().fileSystem(), "/alice-check", TestUsers.ALICE, 0700);
    try (EcCacheClient cache = EcCacheClient.create(TestUsers.as(TestUsers.ALICE))) {
      check(cache, "alice-check/", Long.getLong("eccache.check.ms", 12_000L) / 2);
    }
  }

  /**
   * Packed keys of one size (so a PUT of a sealed one updates it where it is): concurrent updates
   * of values sharing stripes, seals by a maintainer running alongside, reads, deletes, and a data
   * worker stopped halfway, after which reads of its units are degraded and updates of them write
   * anew.
   */
  @Test
  void packedKeysUnderUpdatesSealsAndALostWorker() throws Exception {
    EmbeddedCluster cluster = CLUSTER.cluster();
    long durationMs = Long.getLong("eccache.check.ms", 12_000L);
    try (EcCacheClient cache = EcCacheClient.create(cluster.fileSystemContext());
        RedundancyMaintainer maintainer = RedundancyMaintainer.create(cache)) {
      ConsistencyChecker.Settings settings = new ConsistencyChecker.Settings();
      settings.threads = Integer.getInteger("eccache.check.threads", 6);
      settings.durationMs = durationMs;
      settings.keys = 24;
      settings.valueBytes = 300;
      settings.hangBoundMs = 90_000;
      settings.keyPrefix = "pk/";
      settings.background = () -> {
        try {
          maintainer.runOnce();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      };
      Thread stopper = new Thread(() -> {
        try {
          Thread.sleep(durationMs / 2);
          cluster.stopWorker(2);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      stopper.start();
      ConsistencyChecker.Report report =
          new ConsistencyChecker(cache, settings).run(System.out::println);
      stopper.join();
      System.out.println("consistency check (packed): " + report + "; " + cache.stats().packed());
      report.errors.stream().limit(10).forEach(e -> System.out.println("  error: " + e));
      assertTrue(report.hangs.isEmpty(), () -> String.join("\n", report.hangs));
      assertTrue(report.violations.isEmpty(), () -> String.join("\n", report.violations));
      assertTrue(report.puts.get() > 20 && report.gets.get() + report.streams.get() > 20,
          report::toString);
      assertTrue(cache.stats().packed().stream().anyMatch(p -> p.namespace.equals("pk")
          && p.values + p.waitingValues > 0), "pk values were stored");
    }
  }

  private static void check(EcCacheClient cache, String prefix, long durationMs)
      throws Exception {
    ConsistencyChecker.Settings settings = new ConsistencyChecker.Settings();
    settings.threads = Integer.getInteger("eccache.check.threads", 6);
    settings.durationMs = durationMs;
    settings.keys = 5;
    settings.maxObjectBytes = 400_000;
    settings.hangBoundMs = 90_000;
    settings.keyPrefix = prefix;
    ConsistencyChecker.Report report =
        new ConsistencyChecker(cache, settings).run(System.out::println);
    System.out.println("consistency check (" + prefix + "): " + report);
    report.errors.stream().limit(10).forEach(e -> System.out.println("  error: " + e));
    assertTrue(report.hangs.isEmpty(), () -> String.join("\n", report.hangs));
    assertTrue(report.violations.isEmpty(), () -> String.join("\n", report.violations));
    assertTrue(report.puts.get() > 20 && report.gets.get() + report.streams.get() > 20,
        report::toString);
    assertTrue(report.versionsSeen.get() > 5, report::toString);
    assertTrue(report.errors.stream().noneMatch(e -> e.contains("Permission")),
        () -> "no permission error: " + report.errors);
  }

  @Test
  void contentNamesItsKeyAndVersionAndIsCheckedWhole() {
    ConsistencyChecker.Settings settings = new ConsistencyChecker.Settings();
    ConsistencyChecker checker = new ConsistencyChecker(null, settings);
    byte[] v3 = checker.content(2, 3);
    assertArrayEquals(v3, checker.content(2, 3));
    ByteBuffer header = ByteBuffer.wrap(v3);
    header.getInt();
    assertEquals(2, header.getInt());
    assertEquals(3, header.getLong());
    ConsistencyChecker.Report report = new ConsistencyChecker.Report();
    assertEquals(3, checker.check(2, v3, report));
    assertEquals(-1, checker.check(1, v3, report)); // another key's bytes
    byte[] torn = v3.clone();
    torn[torn.length - 1] ^= 1;
    assertEquals(-1, checker.check(2, torn, report)); // a mix or a tear
    assertEquals(2, report.violations.size());
  }
}
