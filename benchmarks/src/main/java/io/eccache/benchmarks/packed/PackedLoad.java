package io.eccache.benchmarks.packed;

import alluxio.exception.status.NotFoundException;
import io.eccache.client.EcCacheClient;
import io.eccache.client.ObjectStat;
import io.eccache.client.RedundancyMaintainer;
import io.eccache.common.proto.LogNodeStatusResponse;
import io.eccache.common.proto.LogStatus;
import io.eccache.testkit.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * LogECMem's acceptance run on a packed namespace: many small values PUT, then a mixed load of
 * reads, updates and deletes through the Java API, the {@code eccache} CLI and {@code alluxio fs},
 * a maintainer sealing stripes all along; then every value read back as its last acknowledged
 * version (or absent once deleted) and every stripe scrubbed: its cached parities and its log
 * nodes' rows, after their flushes and PLM merges, against a fresh encode of its data.
 *
 * <p>Each key belongs to one thread, so the expected value of every key is exact; keys of one
 * stripe belong to different threads, so updates of one stripe race for its lease.
 *
 * <p>About 450 lines on purpose: the model of what each key must hold (its last acknowledged
 * version, a PUT that failed after it may have landed, what another client's change lets the
 * API client's layout cache serve) is read together with the three paths that change it.
 */
public final class PackedLoad {
  /** What to run. */
  public static final class Settings {
    public String namespace = "kv";
    public int values = 100_000;
    public int minBytes = 1024;
    public int maxBytes = 4096;
    public long ops = 100_000;
    public int threads = 4;
    /** One op in this many goes through the CLI, and one through {@code alluxio fs}. */
    public int viaCommandsEvery = 500;
    public long seed = 1;
    /** The longest a phase may go without finishing one op before the run fails as stuck. */
    public long stallMs = 300_000;
    /** The longest the log nodes may take to flush every decided delta after the load. */
    public long flushWaitMs = 60_000;
    /**
     * The layout cache TTL of the long-lived clients (the API's, the in-process shell's): after
     * another client changed a key, their GETs may serve a replaced version this long
     * (alluxio.user.eccache.layout.cache.ttl).
     */
    public long layoutCacheTtlMs = 3000;
  }

  /** How an op reaches the CLI and the Alluxio shell: their exit status. */
  public interface Commands {
    int cli(String... args);

    int fs(String... args);
  }

  /** The op paths, as counted. */
  enum Via { API, CLI, FS }

  /** The op kinds, as counted. */
  enum Kind { READ, UPDATE, RESIZE, DELETE }

  /** What a run did and found. */
  public static final class Report {
    final AtomicLongArray ops = new AtomicLongArray(Via.values().length * Kind.values().length);
    final AtomicLong failedOps = new AtomicLong();
    /**
     * Reads by a long-lived client (the API's, the shell's) that saw a version another client
     * replaced within the layout cache's TTL: documented, not wrong.
     */
    final AtomicLong previousWithinTtl = new AtomicLong();
    final List<String> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
    long loadMs;
    long mixedMs;
    long flushMs;
    long verifyMs;
    long updatesInPlace;
    long present;
    long absent;
    long stripes;
    long unsealed;
    List<String> disagreements = new ArrayList<>();
    long buffered;
    long logBytes;
    long diskReads;
    long diskWrites;

    long ops(Via via, Kind kind) {
      return ops.get(via.ordinal() * Kind.values().length + kind.ordinal());
    }

    /** Whether every value read back right and every parity agreed. */
    public boolean ok() {
      return wrong.isEmpty() && disagreements.isEmpty() && buffered == 0;
    }
  }

  private final EcCacheClient cache;
  private final RedundancyMaintainer maintainer;
  private final Commands commands;
  private final Settings s;
  private final Path scratch;
  /** Per key: the seed of its last acknowledged value, 0 when absent; -1 when unknown. */
  private final AtomicLongArray seeds;
  private final int[] sizes;
  /** Per key: its last version's number (1 after the load), to name a wrong read's version. */
  private final AtomicLongArray versions;
  /**
   * Per key: the seed of a PUT under way or failed (it may have landed), -2 for a delete, else 0;
   * and that PUT's size.
   */
  private final AtomicLongArray maybe;
  private final int[] maybeSizes;
  /** Versions a key held before, per key: how many a stale cached layout may reach back. */
  private static final int HISTORY = 4;
  /**
   * Per key, its last {@link #HISTORY} replaced versions (seed, 0 for absent; size) and when each
   * stopped being current: a long-lived client (the API's, the in-process shell's, each with a
   * layout cache) may serve one of them for the cache's TTL after another client replaced it.
   */
  private final long[][] replacedSeeds;
  private final int[][] replacedSizes;
  private final long[][] replacedAtMs;
  /** Per path and key, when that path's client last changed the key (it then sees its change). */
  private final long[][] ownChangeAtMs;

  /**
   * @param cache a client of the cluster (an administrator's: its maintainer seals and scrubs)
   * @param scratch a directory for the files the CLI and the shell read and write
   */
  public PackedLoad(EcCacheClient cache, Commands commands, Settings settings, Path scratch) {
    this.cache = cache;
    this.maintainer = RedundancyMaintainer.create(cache);
    this.commands = commands;
    this.s = settings;
    this.scratch = scratch;
    this.seeds = new AtomicLongArray(settings.values);
    this.sizes = new int[settings.values];
    this.versions = new AtomicLongArray(settings.values);
    this.maybe = new AtomicLongArray(settings.values);
    this.maybeSizes = new int[settings.values];
    this.replacedSeeds = new long[settings.values][HISTORY];
    this.replacedSizes = new int[settings.values][HISTORY];
    this.replacedAtMs = new long[settings.values][HISTORY];
    this.ownChangeAtMs = new long[Via.values().length][settings.values];
  }

  String key(int i) {
    return String.format(Locale.ROOT, "%s/load/v%06d", s.namespace, i);
  }

  private static byte[] bytes(int size, long seed) {
    return TestData.randomBytes(size, seed);
  }

  /** Runs the load, the mixed phase and the checks; {@code progress} gets a line every 5 s. */
  public Report run(Consumer<String> progress) throws Exception {
    Report report = new Report();
    maintainer.start(200);
    long began = System.nanoTime();
    parallel(progress, "load", s.values, (t, done) -> load(t, done, report));
    report.loadMs = msSince(began);
    began = System.nanoTime();
    parallel(progress, "mixed", s.ops, (t, done) -> mixed(t, done, report));
    report.mixedMs = msSince(began);
    maintainer.close();
    for (int round = 0; round < 50 && maintainer.runOnce() > 0; round++) {
      // seal what the last values filled
    }
    began = System.nanoTime();
    awaitFlushed(report);
    report.flushMs = msSince(began);
    began = System.nanoTime();
    verify(progress, report);
    report.verifyMs = msSince(began);
    report.updatesInPlace = alluxio.metrics.MetricsSystem.counter(
        io.eccache.common.EcCacheMetrics.UPDATES_IN_PLACE).getCount();
    return report;
  }

  private interface Work {
    void run(int thread, AtomicLong done) throws Exception;
  }

  private void parallel(Consumer<String> progress, String phase, long total, Work work)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(s.threads);
    AtomicLong done = new AtomicLong();
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < s.threads; t++) {
        int thread = t;
        running.add(pool.submit(() -> {
          work.run(thread, done);
          return null;
        }));
      }
      long began = System.nanoTime();
      long lastDone = -1;
      long lastMoved = began;
      for (Future<?> f : running) {
        while (true) {
          try {
            f.get(5, TimeUnit.SECONDS);
            break;
          } catch (java.util.concurrent.TimeoutException e) {
            long now = done.get();
            if (now != lastDone) {
              lastDone = now;
              lastMoved = System.nanoTime();
            } else if (msSince(lastMoved) > s.stallMs) {
              // Every op is bounded by the client's I/O timeout: none finishing is a hang.
              throw new java.util.concurrent.TimeoutException(phase + ": no op finished in "
                  + s.stallMs / 1000 + " s (" + now + " of " + total + " done): stuck; jstack"
                  + " this JVM to see where");
            }
            double seconds = msSince(began) / 1000.0;
            progress.accept(String.format(Locale.ROOT, "%s: %d of %d (%.0f/s)", phase,
                now, total, now / Math.max(seconds, 1e-3)));
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void load(int t, AtomicLong done, Report report) throws IOException {
    Random random = new Random(s.seed * 7919 + t);
    for (int i = t; i < s.values; i += s.threads) {
      sizes[i] = s.minBytes + random.nextInt(s.maxBytes - s.minBytes + 1);
      long seed = seedOf(i, 1);
      cache.put(key(i), bytes(sizes[i], seed));
      versions.set(i, 1);
      seeds.set(i, seed);
      done.incrementAndGet();
    }
  }

  /** A value's seed: unique per key and version. */
  private long seedOf(int key, long version) {
    return (s.seed << 48) ^ ((long) key << 20) ^ version;
  }

  private void mixed(int t, AtomicLong done, Report report) throws Exception {
    Random random = new Random(s.seed * 104_729 + t);
    int owned = (s.values - t + s.threads - 1) / s.threads;
    for (long n = t; n < s.ops; n += s.threads) {
      int slot = random.nextInt(owned);
      int i = t + slot * s.threads;
      long phase = (n / s.threads) % s.viaCommandsEvery;
      Via via = phase == 0 ? Via.CLI : phase == s.viaCommandsEvery / 2 ? Via.FS : Via.API;
      double p = random.nextDouble();
      boolean present = seeds.get(i) != 0;
      Kind kind = p < 0.5 || (p >= 0.95 && !present) ? Kind.READ : p < 0.9 ? Kind.UPDATE
          : p < 0.95 ? Kind.RESIZE : Kind.DELETE;
      report.ops.incrementAndGet(via.ordinal() * Kind.values().length + kind.ordinal());
      try {
        switch (kind) {
          case READ:
            read(i, via, report);
            break;
          case UPDATE:
          case RESIZE:
            int size = kind == Kind.RESIZE || !present
                ? s.minBytes + random.nextInt(s.maxBytes - s.minBytes + 1) : sizes[i];
            long seed = seedOf(i, versions.incrementAndGet(i));
            write(i, bytes(size, seed), seed, via);
            break;
          default:
            delete(i, via);
            break;
        }
      } catch (IOException | RuntimeException e) {
        report.failedOps.incrementAndGet();
        report.wrong.add(kind + " of " + key(i) + " via " + via + " failed: " + e);
      }
      done.incrementAndGet();
    }
  }

  private void read(int i, Via via, Report report) throws IOException {
    byte[] got;
    if (via == Via.API) {
      try {
        got = cache.get(key(i));
      } catch (NotFoundException e) {
        got = null;
      }
    } else {
      Path file = scratch.resolve("read-" + i);
      Files.deleteIfExists(file);
      int exit = via == Via.CLI ? commands.cli("get", key(i), file.toString())
          : commands.fs("ecGet", key(i), file.toString());
      got = exit == 0 ? Files.readAllBytes(file) : null;
      Files.deleteIfExists(file);
      if (exit != 0 && seeds.get(i) != 0) {
        throw new IOException(via + " get of a present key exited " + exit);
      }
    }
    String problem = check(i, got);
    if (problem != null && via != Via.CLI && previousWithinTtl(i, got, via)) {
      report.previousWithinTtl.incrementAndGet();
      problem = null;
    }
    if (problem != null) {
      report.wrong.add("read via " + via + ": " + problem);
    }
  }

  /**
   * Whether {@code got} (null: absent) is a version of key {@code i} that another client
   * replaced within the layout cache's TTL, after {@code via}'s client last changed the key
   * itself: what a client whose cached layout has not expired may serve (the CLI's client is new
   * each command, so never).
   */
  private boolean previousWithinTtl(int i, byte[] got, Via via) {
    long now = System.currentTimeMillis();
    for (int h = 0; h < HISTORY; h++) {
      long at = replacedAtMs[i][h];
      // The shell's ecGet has a client of its own (not ecPut's, not ecRm's): no change is its.
      if (at == 0 || at < now - s.layoutCacheTtlMs - 1000
          || (via == Via.API && at <= ownChangeAtMs[via.ordinal()][i])) {
        continue;
      }
      long seed = replacedSeeds[i][h];
      if (got == null ? seed == 0 : seed != 0 && got.length == replacedSizes[i][h]
          && Arrays.equals(got, bytes(got.length, seed))) {
        return true;
      }
    }
    return false;
  }

  /** When the version {@code got} is was replaced, as far as the history tells. */
  private String replacedAgo(int i, byte[] got) {
    long now = System.currentTimeMillis();
    for (int h = 0; h < HISTORY; h++) {
      long seed = replacedSeeds[i][h];
      if (replacedAtMs[i][h] != 0 && seed != 0 && got.length == replacedSizes[i][h]
          && Arrays.equals(got, bytes(got.length, seed))) {
        return ", replaced " + (now - replacedAtMs[i][h]) + " ms ago";
      }
    }
    return "";
  }

  /** Records that {@code via} replaced key {@code i}'s value (or absence) just now. */
  private void replaced(int i, long previousSeed, int previousSize, Via via) {
    long now = System.currentTimeMillis();
    int oldest = 0;
    for (int h = 1; h < HISTORY; h++) {
      if (replacedAtMs[i][h] < replacedAtMs[i][oldest]) {
        oldest = h;
      }
    }
    replacedSeeds[i][oldest] = previousSeed;
    replacedSizes[i][oldest] = previousSize;
    replacedAtMs[i][oldest] = now;
    ownChangeAtMs[via.ordinal()][i] = now;
  }

  /** What is wrong with {@code got} (null: absent) as key {@code i}'s value; null if nothing. */
  private String check(int i, byte[] got) {
    long seed = seeds.get(i);
    long other = maybe.get(i);
    if (got == null) {
      return seed == 0 || other == -2 ? null : key(i) + " is missing";
    }
    if (seed != 0 && Arrays.equals(got, bytes(sizes[i], seed))) {
      return null;
    }
    if (other > 0 && got.length == maybeSizes[i]
        && Arrays.equals(got, bytes(maybeSizes[i], other))) {
      return null; // a PUT that failed after it landed
    }
    return key(i) + " holds " + got.length + " bytes that are not its last acknowledged value"
        + " (version " + versions.get(i) + (seed == 0 ? ", deleted" : "") + "): "
        + versionOf(i, got);
  }

  /** Which of key {@code i}'s versions {@code got} is, as far as can be told. */
  private String versionOf(int i, byte[] got) {
    for (long v = versions.get(i); v >= 1; v--) {
      if (Arrays.equals(got, bytes(got.length, seedOf(i, v)))) {
        return "they are its version " + v + replacedAgo(i, got);
      }
    }
    return "they are none of its versions";
  }

  private void write(int i, byte[] value, long seed, Via via) throws IOException {
    maybeSizes[i] = value.length;
    maybe.set(i, seed);
    long previousSeed = seeds.get(i);
    int previousSize = sizes[i];
    if (via == Via.API) {
      cache.put(key(i), value);
    } else {
      Path file = scratch.resolve("write-" + i);
      Files.write(file, value);
      int exit = via == Via.CLI ? commands.cli("put", file.toString(), key(i))
          : commands.fs("ecPut", file.toString(), key(i));
      Files.deleteIfExists(file);
      if (exit != 0) {
        throw new IOException(via + " put exited " + exit);
      }
    }
    sizes[i] = value.length;
    seeds.set(i, seed);
    maybe.set(i, 0);
    replaced(i, previousSeed, previousSize, via);
  }

  private void delete(int i, Via via) throws IOException {
    maybe.set(i, -2); // absent is as good as the last value until the delete answers
    long previousSeed = seeds.get(i);
    int previousSize = sizes[i];
    if (via == Via.API) {
      cache.delete(key(i));
    } else {
      int exit = via == Via.CLI ? commands.cli("rm", key(i)) : commands.fs("ecRm", key(i));
      if (exit != 0) {
        throw new IOException(via + " rm exited " + exit);
      }
    }
    seeds.set(i, 0);
    maybe.set(i, 0);
    replaced(i, previousSeed, previousSize, via);
  }

  /** Waits until no log holds buffered bytes: every decided delta flushed (and merged, PLM). */
  private void awaitFlushed(Report report) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(s.flushWaitMs);
    while (true) {
      long buffered = 0;
      long logBytes = 0;
      long reads = 0;
      long writes = 0;
      for (Map.Entry<String, LogNodeStatusResponse> node : maintainer.logNodeStatus().entrySet()) {
        for (LogStatus log : node.getValue().getLogsList()) {
          buffered += log.getBufferedBytes();
          logBytes += log.getLogBytes();
          reads += log.getDiskReads();
          writes += log.getDiskWrites();
        }
      }
      report.buffered = buffered;
      report.logBytes = logBytes;
      report.diskReads = reads;
      report.diskWrites = writes;
      if (buffered == 0 || System.nanoTime() > deadline) {
        return;
      }
      Thread.sleep(200);
    }
  }

  private void verify(Consumer<String> progress, Report report) throws IOException {
    Set<Long> scrubbed = new HashSet<>();
    long began = System.nanoTime();
    for (int i = 0; i < s.values; i++) {
      byte[] got;
      try {
        got = cache.get(key(i));
      } catch (NotFoundException e) {
        got = null;
      }
      String problem = check(i, got);
      if (problem != null && previousWithinTtl(i, got, Via.API)) {
        report.previousWithinTtl.incrementAndGet();
        problem = null;
      }
      if (problem != null) {
        report.wrong.add("after the load: " + problem);
      }
      if (got == null) {
        report.absent++;
        continue;
      }
      report.present++;
      ObjectStat.Packed packed = cache.stat(key(i)).packed().orElse(null);
      if (packed == null || packed.waiting()) {
        report.unsealed++;
      } else if (scrubbed.add(packed.stripe())) {
        List<String> found = maintainer.scrub(key(i));
        report.disagreements.addAll(found);
        report.stripes++;
      }
      if ((i + 1) % 10_000 == 0) {
        progress.accept(String.format(Locale.ROOT, "verify: %d of %d values, %d stripes"
            + " scrubbed (%.0f s)", i + 1, s.values, report.stripes, msSince(began) / 1000.0));
      }
    }
  }

  private static long msSince(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
  }
}
