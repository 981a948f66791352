package io.eccache.benchmarks.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.Utils;
import site.ycsb.generator.ScrambledZipfianGenerator;

class KvWorkloadTest {
  @Test
  void keysAndScramblingAreYcsbsOwnHash() {
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 100_000; i++) {
      long n = i < 1000 ? i : random.nextLong();
      assertEquals(Utils.fnvhash64(n), ScrambledZipf.fnv64(n), "fnv64(" + n + ")");
    }
    assertEquals("user" + Utils.fnvhash64(42), KvWorkload.keyName(42));
  }

  /**
   * The seeded generator and YCSB's own (unseedable) one, 2,000,000 draws each over 1,000 items:
   * the same hottest items, each of the 30 hottest within 5 standard errors of YCSB's frequency,
   * and a total variation distance of sampling noise only (two samples of YCSB's own class are
   * 0.012 apart; θ 0.99 and 0.9 are 0.126 apart).
   */
  @Test
  void drawsTheDistributionOfYcsbsScrambledZipfian() {
    int items = 1000;
    int draws = 2_000_000;
    double[] ours = frequencies(items, draws, new ScrambledZipf(items, new SplittableRandom(7))
        ::next);
    ScrambledZipfianGenerator ycsb = new ScrambledZipfianGenerator(items);
    double[] theirs = frequencies(items, draws, ycsb::nextValue);
    List<Integer> hottest = IntStream.range(0, items).boxed()
        .sorted((a, b) -> Double.compare(theirs[b], theirs[a])).collect(Collectors.toList());
    assertEquals(ScrambledZipf.fnv64(0) % items, (long) hottest.get(0), "rank 0's item");
    for (int item : hottest.subList(0, 30)) {
      double p = theirs[item];
      double error = Math.sqrt(2 * p * (1 - p) / draws);
      assertTrue(Math.abs(ours[item] - p) <= 5 * error, "item " + item + ": " + ours[item]
          + " against YCSB's " + p);
    }
    double distance = 0;
    for (int i = 0; i < items; i++) {
      distance += Math.abs(ours[i] - theirs[i]) / 2;
    }
    System.out.printf("scrambled Zipf 0.99 over %d items: hottest %.4f (YCSB %.4f), total"
        + " variation %.4f%n", items, ours[hottest.get(0)], theirs[hottest.get(0)], distance);
    assertTrue(distance < 0.02, "total variation distance " + distance);
  }

  private static double[] frequencies(int items, int draws,
      java.util.function.LongSupplier next) {
    double[] f = new double[items];
    for (int i = 0; i < draws; i++) {
      f[(int) next.getAsLong()] += 1.0 / draws;
    }
    return f;
  }

  @Test
  void aSeedMakesTheSameTraceAndTheMixHoldsItsShares() {
    KvWorkload workload = new KvWorkload(5_000, 20_000, KvMix.readUpdate(70, 30), 11);
    KvTrace trace = workload.generate();
    assertEquals(trace.run(), workload.generate().run());
    assertNotEquals(trace.run(), new KvWorkload(5_000, 20_000, KvMix.readUpdate(70, 30), 12)
        .generate().run());
    assertEquals(5_000, trace.load().size());
    assertEquals(5_000, trace.load().stream().map(KvOp::key).distinct().count(), "distinct keys");
    assertTrue(trace.load().stream().allMatch(op -> op.kind() == KvOp.Kind.INSERT
        && op.key().length() <= 23), "YCSB's keys, about 20 bytes");
    assertEquals(0, trace.count(KvOp.Kind.INSERT));
    double updates = trace.count(KvOp.Kind.UPDATE) / 20_000.0;
    assertEquals(0.30, updates, 0.02, "update share");
    Set<String> loaded = trace.load().stream().map(KvOp::key).collect(Collectors.toSet());
    assertTrue(trace.run().stream().allMatch(op -> loaded.contains(op.key())));
  }

  @Test
  void writesInsertNewKeysAndReadsOnlyKeysAlreadyInserted() {
    KvTrace trace = new KvWorkload(1_000, 4_000, KvMix.readWrite(50, 50), 5).generate();
    Set<String> present = new HashSet<>();
    trace.load().forEach(op -> present.add(op.key()));
    long n = 1_000;
    for (KvOp op : trace.run()) {
      if (op.kind() == KvOp.Kind.INSERT) {
        assertEquals(KvWorkload.keyName(n++), op.key(), "inserts in sequence");
        assertTrue(present.add(op.key()), "a new key");
      } else {
        assertEquals(KvOp.Kind.READ, op.kind());
        assertTrue(present.contains(op.key()), op + " reads a key not yet inserted");
      }
    }
    assertEquals(0.5, trace.count(KvOp.Kind.INSERT) / 4_000.0, 0.03);
  }

  @Test
  void aTraceFileRoundTripsAndTheArtifactsFormatReads(@TempDir Path dir) throws Exception {
    KvTrace trace = new KvWorkload(50, 200, KvMix.readUpdate(95, 5), 1).generate();
    Path file = dir.resolve("trace.txt");
    trace.write(file);
    KvTrace back = KvTrace.read(file);
    assertEquals(trace.load(), back.load());
    assertEquals(trace.run(), back.run());
    assertEquals(trace.description(), back.description());
    Path artifact = Files.write(dir.resolve("ycsb_run"), Arrays.asList("INSERT user1",
        "READ user1", "UPDATE user1", ""));
    assertEquals(List.of(new KvOp(KvOp.Kind.INSERT, "user1"), new KvOp(KvOp.Kind.READ, "user1"),
        new KvOp(KvOp.Kind.UPDATE, "user1")), KvTrace.read(artifact).run());
    Path bad = Files.write(dir.resolve("bad"), Arrays.asList("READ user1", "DELETE user1"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> KvTrace.read(bad));
    assertTrue(e.getMessage().contains("line 2") && e.getMessage().contains("DELETE"),
        e.getMessage());
  }

  @Test
  void badSettingsAreRefusedWithWhatToGive() {
    assertEquals("read:update 80:20", KvMix.parse("read:update 80:20").toString());
    assertEquals(KvMix.readWrite(95, 5), KvMix.parse("READ:WRITE 95:5"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> KvMix.parse("95:5"))
        .getMessage().contains("read:update 95:5"));
    assertThrows(IllegalArgumentException.class, () -> KvMix.readUpdate(90, 5));
    assertThrows(IllegalArgumentException.class, () -> new KvWorkload(0, 1, KvMix.readUpdate(
        95, 5), 1));
    assertThrows(IllegalArgumentException.class, () -> new ScrambledZipf(0,
        new SplittableRandom(1)));
  }
}
