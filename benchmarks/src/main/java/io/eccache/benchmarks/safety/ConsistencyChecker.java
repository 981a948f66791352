package io.eccache.benchmarks.safety;

import alluxio.exception.status.AbortedException;
import alluxio.exception.status.NotFoundException;
import io.eccache.client.EcCacheClient;
import io.eccache.client.PutOptions;
import io.eccache.client.WriteMode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A concurrency checker for the public API: N threads PUT, GET, stream, overwrite, evict and delete
 * a small key set for a while, with content that names its key and version, and check what every
 * read returns:
 *
 * <ul>
 *   <li>exactly one complete version that was PUT for that key: never a mix of two, never another
 *       key's bytes, never a torn or padded object;</li>
 *   <li>no older version than the one a PUT completed before the read began, when no other write or
 *       delete of the key began since (and no object after a delete that completed so);</li>
 *   <li>the run ends on its own: every operation returns or fails within a bound; a thread still
 *       busy past the deadline plus that bound is reported with its stack as a hang.</li>
 * </ul>
 *
 * <p>Version {@code v} of key {@code i} is a 16-byte header (magic, i, v) followed by bytes drawn
 * from a generator seeded by (i, v), of a length drawn from the same generator: any read can be
 * regenerated and compared in full.
 */
public final class ConsistencyChecker {
  private static final int MAGIC = 0xEC0C4EC4;
  private static final int HEADER = 16;
  private static final long UNKNOWN = -1;

  /** What to run. */
  public static final class Settings {
    public int threads = 4;
    public int keys = 6;
    public long durationMs = 10_000;
    public int maxObjectBytes = 600_000;
    public long seed = 1;
    public String keyPrefix = "check/";
    /** How long past the deadline a thread may still be inside one operation before it is a hang. */
    public long hangBoundMs = 120_000;
    /**
     * Above 0: every version of a key has exactly this many bytes and PUTs leave the scheme to the
     * coordinator (mostly cache-only arrays), so in a packed namespace a PUT of a sealed value
     * updates it where it is (docs/packed.md), and keys sharing stripes are updated concurrently.
     */
    public int valueBytes;
    /** Run every {@link #backgroundEveryMs} on a thread of its own until the deadline (a maintainer). */
    public Runnable background;
    public long backgroundEveryMs = 200;
  }

  /** What a run saw. */
  public static final class Report {
    public final AtomicLong puts = new AtomicLong();
    public final AtomicLong failedPuts = new AtomicLong();
    public final AtomicLong gets = new AtomicLong();
    public final AtomicLong streams = new AtomicLong();
    public final AtomicLong notFound = new AtomicLong();
    public final AtomicLong aborted = new AtomicLong();
    public final AtomicLong otherReadErrors = new AtomicLong();
    public final AtomicLong deletes = new AtomicLong();
    public final AtomicLong evicts = new AtomicLong();
    public final AtomicLong versionsSeen = new AtomicLong();
    public final AtomicLong maxLatencyNanos = new AtomicLong();
    /** The operation that took {@link #maxLatencyNanos}, e.g. "stream check/k3". */
    private String slowest = "none";
    public final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    public final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    public final List<String> hangs = new ArrayList<>();
    public long elapsedMs;

    public boolean ok() {
      return violations.isEmpty() && hangs.isEmpty();
    }

    void took(long nanos, String operation) {
      if (nanos <= maxLatencyNanos.get()) {
        return; // most operations: no lock
      }
      synchronized (this) {
        if (nanos > maxLatencyNanos.get()) {
          maxLatencyNanos.set(nanos);
          slowest = operation;
        }
      }
    }

    synchronized String slowest() {
      return slowest;
    }

    @Override
    public String toString() {
      return String.format("%d s: %d PUTs (%d failed), %d GETs + %d streams (%d not found, %d"
          + " aborted as replaced, %d other errors), %d deletes, %d evictions; %d distinct"
          + " versions read; max latency %.0f ms (%s); %d violations, %d hangs",
          elapsedMs / 1000, puts.get(), failedPuts.get(), gets.get(), streams.get(),
          notFound.get(), aborted.get(), otherReadErrors.get(), deletes.get(), evicts.get(),
          versionsSeen.get(), maxLatencyNanos.get() / 1e6, slowest(), violations.size(),
          hangs.size());
    }
  }

  /** Per key: versions allocated, what completed last, and writes in flight. */
  private static final class KeyState {
    long nextVersion = 1;
    // Version of the last completed PUT; 0 after a completed delete (or none yet); UNKNOWN after an
    // eviction, when a read may find an under-store copy or nothing, until the next PUT completes.
    long completed;
    long epoch; // bumped when any write or delete of the key begins
    int inFlight;
  }

  private final EcCacheClient cache;
  private final Settings settings;
  private final KeyState[] states;
  private final Map<Long, Boolean> seen = new ConcurrentHashMap<>();

  public ConsistencyChecker(EcCacheClient cache, Settings settings) {
    this.cache = cache;
    this.settings = settings;
    this.states = new KeyState[settings.keys];
    for (int i = 0; i < states.length; i++) {
      states[i] = new KeyState();
    }
  }

  /** Runs the check; {@code progress} gets a line every few seconds. */
  public Report run(Consumer<String> progress) throws InterruptedException {
    Report report = new Report();
    for (int i = 0; i < settings.keys; i++) {
      try {
        cache.delete(key(i)); // a clean start: versions of an earlier run are not this run's
      } catch (IOException e) {
        report.errors.add("cleaning " + key(i) + ": " + e);
      }
    }
    long began = System.currentTimeMillis();
    long deadline = began + settings.durationMs;
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < settings.threads; t++) {
      Random random = new Random(settings.seed * 1_000_003 + t);
      Thread thread = new Thread(() -> {
        while (System.currentTimeMillis() < deadline) {
          step(random, report);
        }
      }, "consistency-checker-" + t);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    if (settings.background != null) {
      Thread side = new Thread(() -> {
        while (System.currentTimeMillis() < deadline) {
          try {
            settings.background.run();
          } catch (RuntimeException e) {
            report.errors.add("background: " + e);
          }
          try {
            Thread.sleep(settings.backgroundEveryMs);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "consistency-checker-background");
      side.setDaemon(true);
      threads.add(side);
      side.start();
    }
    long lastProgress = began;
    for (Thread thread : threads) {
      while (thread.isAlive()) {
        long now = System.currentTimeMillis();
        if (now > deadline + settings.hangBoundMs) {
          break;
        }
        thread.join(500);
        if (now - lastProgress >= 5000) {
          lastProgress = now;
          report.elapsedMs = now - began;
          report.versionsSeen.set(seen.size());
          progress.accept(report.toString());
        }
      }
    }
    for (Thread thread : threads) {
      if (thread.isAlive()) {
        StringBuilder stack = new StringBuilder(thread.getName() + " still busy "
            + settings.hangBoundMs / 1000 + " s after the deadline:");
        for (StackTraceElement e : thread.getStackTrace()) {
          stack.append("\n    at ").append(e);
        }
        report.hangs.add(stack.toString());
      }
    }
    report.elapsedMs = System.currentTimeMillis() - began;
    report.versionsSeen.set(seen.size());
    return report;
  }

  private String key(int i) {
    return settings.keyPrefix + "k" + i;
  }

  private void step(Random random, Report report) {
    int i = random.nextInt(settings.keys);
    int op = random.nextInt(100);
    String name = op < 35 ? "PUT" : op < 65 ? "GET" : op < 90 ? "stream" : op < 96 ? "delete"
        : "evict";
    long began = System.nanoTime();
    try {
      switch (name) {
        case "PUT":
          put(i, random, report);
          break;
        case "GET":
        case "stream":
          read(i, name.equals("stream"), report);
          break;
        default:
          delete(i, name.equals("delete"), report);
      }
    } finally {
      report.took(System.nanoTime() - began, name + " " + key(i));
    }
  }

  private void put(int i, Random random, Report report) {
    long version;
    long epoch;
    boolean alone;
    synchronized (states[i]) {
      version = states[i].nextVersion++;
      alone = states[i].inFlight == 0;
      epoch = ++states[i].epoch;
      states[i].inFlight++;
    }
    byte[] content = content(i, version);
    boolean ok = false;
    try {
      PutOptions options = settings.valueBytes > 0 ? PutOptions.defaults()
          .writeMode(random.nextInt(10) == 0 ? WriteMode.THROUGH : WriteMode.CACHE_ONLY)
          : (random.nextInt(4) == 0 ? PutOptions.code(2, 1) : PutOptions.code(3, 1))
              .writeMode(random.nextInt(5) == 0 ? WriteMode.THROUGH : WriteMode.CACHE_ONLY);
      if (settings.valueBytes > 0 || random.nextBoolean()) {
        cache.put(key(i), content, options);
      } else {
        cache.put(key(i), new ByteArrayInputStream(content), content.length, options);
      }
      ok = true;
      report.puts.incrementAndGet();
    } catch (IOException | RuntimeException e) {
      report.failedPuts.incrementAndGet();
      report.errors.add("PUT " + key(i) + " v" + version + ": " + stackOf(e));
    } finally {
      completed(i, ok, alone, epoch, version);
    }
  }

  private void delete(int i, boolean everywhere, Report report) {
    long epoch;
    boolean alone;
    synchronized (states[i]) {
      alone = states[i].inFlight == 0;
      epoch = ++states[i].epoch;
      states[i].inFlight++;
    }
    boolean ok = false;
    try {
      if (everywhere) {
        cache.delete(key(i));
        report.deletes.incrementAndGet();
      } else {
        cache.evict(key(i)); // the under store may still hold a THROUGH version: not a delete
        report.evicts.incrementAndGet();
      }
      ok = true;
    } catch (IOException | RuntimeException e) {
      report.errors.add("delete " + key(i) + ": " + e);
    } finally {
      completed(i, ok, alone, epoch, everywhere ? 0 : UNKNOWN);
    }
  }

  /**
   * Records a write or delete that ended. What the key holds is known only when the operation
   * overlapped no other write of the key: otherwise their commits may have landed in either order.
   * A failed write may still have committed (its answer lost), so it makes the state unknown too.
   */
  private void completed(int i, boolean ok, boolean alone, long epoch, long outcome) {
    synchronized (states[i]) {
      states[i].inFlight--;
      boolean overlapped = !alone || states[i].epoch != epoch || states[i].inFlight > 0;
      states[i].completed = ok && !overlapped ? outcome : UNKNOWN;
    }
  }

  private void read(int i, boolean stream, Report report) {
    long expected;
    long epoch;
    boolean quiet;
    synchronized (states[i]) {
      expected = states[i].completed;
      epoch = states[i].epoch;
      quiet = states[i].inFlight == 0;
    }
    byte[] got;
    try {
      if (stream) {
        try (InputStream in = cache.openStream(key(i))) {
          got = in.readAllBytes();
        }
        report.streams.incrementAndGet();
      } else {
        got = cache.get(key(i));
        report.gets.incrementAndGet();
      }
    } catch (NotFoundException e) {
      report.notFound.incrementAndGet();
      boolean stillQuiet;
      synchronized (states[i]) {
        stillQuiet = states[i].epoch == epoch;
      }
      if (quiet && stillQuiet && expected > 0) {
        report.violations.add(key(i) + ": not found, but v" + expected + " was PUT before the"
            + " read began and nothing wrote or deleted the key since");
      }
      return;
    } catch (AbortedException e) {
      report.aborted.incrementAndGet(); // replaced while read: a typed, retryable outcome
      return;
    } catch (IOException | RuntimeException e) {
      report.otherReadErrors.incrementAndGet();
      report.errors.add((stream ? "stream " : "GET ") + key(i) + ": " + stackOf(e));
      return;
    }
    long version = check(i, got, report);
    if (version < 0) {
      return;
    }
    seen.put((long) i << 40 | version, Boolean.TRUE);
    boolean stillQuiet;
    synchronized (states[i]) {
      stillQuiet = states[i].epoch == epoch;
    }
    if (expected == UNKNOWN) {
      return;
    }
    if (quiet && stillQuiet && version != expected) {
      report.violations.add(key(i) + ": read v" + version + " but v" + expected + " was the last"
          + " completed write before the read began and nothing wrote the key since");
    } else if (quiet && version < expected) {
      report.violations.add(key(i) + ": read v" + version + ", older than v" + expected
          + " which completed before the read began");
    }
  }

  /** The exception and where it was thrown (the first frames), for an error report. */
  private static String stackOf(Throwable e) {
    StringBuilder s = new StringBuilder(e.toString());
    StackTraceElement[] frames = e.getStackTrace();
    for (int i = 0; i < Math.min(12, frames.length); i++) {
      s.append("\n      at ").append(frames[i]);
    }
    return s.toString();
  }

  /** The version {@code got} is, or -1 after recording why it is no version of key {@code i}. */
  long check(int i, byte[] got, Report report) {
    if (got.length < HEADER) {
      report.violations.add(key(i) + ": " + got.length + " bytes, shorter than any version");
      return -1;
    }
    ByteBuffer header = ByteBuffer.wrap(got, 0, HEADER);
    int magic = header.getInt();
    int keyIndex = header.getInt();
    long version = header.getLong();
    if (magic != MAGIC || keyIndex != i) {
      report.violations.add(key(i) + ": read bytes of "
          + (magic != MAGIC ? "no version at all" : "key " + key(keyIndex)));
      return -1;
    }
    byte[] expected = content(i, version);
    if (!Arrays.equals(expected, got)) {
      int at = Arrays.mismatch(expected, got);
      report.violations.add(key(i) + ": v" + version + " read as " + got.length + " bytes, differs"
          + " from the " + expected.length + " written at byte " + at + " (a mix or a tear)");
      return -1;
    }
    return version;
  }

  /** Version {@code version} of key {@code i}: its header, then bytes only (i, version) give. */
  byte[] content(int i, long version) {
    Random random = new Random(settings.seed ^ (i * 0x9E3779B97F4A7C15L) ^ (version * 31));
    int length = settings.valueBytes > 0 ? Math.max(HEADER, settings.valueBytes)
        : HEADER + random.nextInt(settings.maxObjectBytes);
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    ByteBuffer.wrap(bytes).putInt(MAGIC).putInt(i).putLong(version);
    return bytes;
  }
}
