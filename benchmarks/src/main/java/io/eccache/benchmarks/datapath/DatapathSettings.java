package io.eccache.benchmarks.datapath;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one data-path run measures: object sizes, client thread counts, rounds, the code, and the
 * caps that keep its data in the launcher's heap. Mutable fields, checked once by {@link #check()}
 * before anything starts.
 */
public final class DatapathSettings {
  /** 2^20 bytes. */
  public static final long MIB = 1L << 20;
  /** The default sizes: a small object, the paper's 40 MB and sizes around it. */
  public static final List<Long> DEFAULT_SIZES = List.of(64L << 10, MIB, 8 * MIB, 40_000_000L,
      64 * MIB, 256 * MIB);
  /** The largest object size accepted: one must fit in an array and the heap several times. */
  public static final long MAX_SIZE = 1L << 30;
  /**
   * The cluster's {@code alluxio.eccache.small.object.threshold} (its default): eccache PUTs of
   * smaller objects give no scheme, and the coordinator stores them as whole copies.
   */
  public static final long SMALL_OBJECT_THRESHOLD = 1_000_000;

  /** Object sizes in bytes, in the order measured. */
  public List<Long> sizes = new ArrayList<>(DEFAULT_SIZES);
  /** Client thread counts, each measured on its own. */
  public List<Integer> threads = new ArrayList<>(List.of(1, 16));
  /** The operations measured, each by its three variants. */
  public Set<Variant.Operation> operations = EnumSet.allOf(Variant.Operation.class);
  /** Measured rounds per size and thread count; every variant runs once per round. */
  public int rounds = 5;
  /** Workers of the cluster the benchmark starts. */
  public int workers = 12;

  /** Where the master and the workers run, which decides what the CPU columns count. */
  public enum ClusterKind {
    /** In the benchmark's own process: its CPU is the client's and the servers'. */
    IN_PROCESS,
    /** In processes of their own on this machine, started by the benchmark and measured too. */
    PROCESSES,
    /** A running cluster elsewhere: only the client's CPU is measured. */
    RUNNING
  }

  /** Where the cluster measured runs. */
  public ClusterKind cluster = ClusterKind.IN_PROCESS;
  /** Data splits of eccache's code, and how many plain files the "pk" variant splits into. */
  public int k = 10;
  /** Parity splits of eccache's code. */
  public int r = 1;
  /** Extra splits an eccache GET reads. */
  public int delta = 1;
  /** Seed of the data and of the variants' order in each round. */
  public long seed = 1;
  /**
   * Cap, in bytes, on the objects a variant stores for GETs (objects x size) and on the bytes in
   * flight at once (threads x size): the data, the results and the sources all live in the heap.
   */
  public long dataCapBytes = 1L << 30;
  /** At most this many objects per size, whatever the cap allows (setup time). */
  public int maxObjects = 32;
  /** Bytes a variant aims to move per round; sets the operations per round. */
  public long roundBytes = 512 * MIB;
  /** Bounds on a variant's operations per round (all threads together). */
  public int minOps = 4;
  public int maxOps = 64;
  /** Steps per round at least: one step alone would be its slowest operation. */
  public int minSteps = 2;
  /** Operations per thread per round when set (overrides roundBytes, minOps, maxOps). */
  public Integer fixedOps;
  /** Objects per size when set (overrides the cap's choice, still capped by it). */
  public Integer fixedObjects;
  /** Each worker's memory tier. */
  public long workerMemoryBytes = 2L << 30;
  /** The longest one step (every thread's one operation) may take. */
  public long stepTimeoutMs = 300_000;
  /**
   * The longest a settling pass or round waits, before it starts, for the workers to have removed
   * what earlier PUTs wrote and deleted (eccache's deleted objects after the master's retired
   * grace); 0: no wait, for a running cluster whose grace and other users are not the
   * benchmark's.
   */
  public long removalTimeoutMs;
  /**
   * Unmeasured warm-up per variant, size and thread count before the rounds (at least one step):
   * long enough for the JIT to compile each variant's per-operation code, which a single step of
   * small objects is not (the compiler threads took 20-40% of the CPU of measured rounds).
   */
  public long warmupMs = 3000;

  /**
   * After the warm-ups, unmeasured passes of every variant run until the JIT compilers take at
   * most this share of a pass's CPU...
   */
  public double jitSettledShare = 0.02;
  /** ...or this many passes ran (0: none). */
  public int maxSettlePasses = 5;

  /**
   * Fails on a setting out of range, naming it.
   *
   * @throws IllegalArgumentException for the first bad setting
   */
  public void check() {
    if (sizes.isEmpty() || threads.isEmpty()) {
      throw new IllegalArgumentException("--sizes and --threads need at least one value each");
    }
    for (long s : sizes) {
      if (s < 1024 || s > MAX_SIZE) {
        throw new IllegalArgumentException("--sizes: each size must be between 1 KiB and 1 GiB,"
            + " got " + s + " bytes");
      }
    }
    for (int t : threads) {
      if (t < 1 || t > 256) {
        throw new IllegalArgumentException("--threads: each count must be in 1..256, got " + t);
      }
    }
    if (operations.isEmpty()) {
      throw new IllegalArgumentException("--operations needs GET, PUT or both");
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
    }
    if (k < 1 || r < 0 || delta < 0 || delta > r) {
      throw new IllegalArgumentException("need k >= 1 and 0 <= delta <= r, got k=" + k + ", r="
          + r + ", delta=" + delta);
    }
    if (k + r > workers) {
      throw new IllegalArgumentException("k + r = " + (k + r) + " needs at least that many"
          + " workers; use --workers " + (k + r) + " or a smaller k or r");
    }
    if (dataCapBytes < 1024) {
      throw new IllegalArgumentException("--data-mib must be positive, got " + dataCapBytes
          + " bytes");
    }
    if (fixedOps != null && fixedOps < 1) {
      throw new IllegalArgumentException("--ops must be at least 1, got " + fixedOps);
    }
    if (warmupMs < 0) {
      throw new IllegalArgumentException("--warmup must not be negative, got " + warmupMs + " ms");
    }
    if (storedBytesFiles && !operations.contains(Variant.Operation.PUT)) {
      throw new IllegalArgumentException("--stored-bytes-files is a PUT variant: measure PUTs"
          + " too (--operations PUT or GET,PUT)");
    }
    if (fixedObjects != null && fixedObjects < 1) {
      throw new IllegalArgumentException("--objects must be at least 1, got " + fixedObjects);
    }
  }

  /**
   * Whether PUTs are also measured as the bytes eccache stores written as k + r plain files
   * ({@link Variant#PUT_PKR}).
   */
  public boolean storedBytesFiles;

  /** The variants measured: those of the {@link #operations}, in {@link Variant}'s order. */
  public List<Variant> variants() {
    List<Variant> measured = new ArrayList<>();
    for (Variant v : Variant.values()) {
      if (operations.contains(v.operation()) && (v != Variant.PUT_PKR || storedBytesFiles)) {
        measured.add(v);
      }
    }
    return measured;
  }

  /** Objects stored per variant for GETs of {@code size}: at least 1, objects x size within cap. */
  public int objectsFor(long size) {
    int byCap = (int) Math.max(1, Math.min(Integer.MAX_VALUE, dataCapBytes / size));
    int wanted = fixedObjects != null ? fixedObjects : maxObjects;
    return Math.max(1, Math.min(wanted, byCap));
  }

  /** The threads that run at {@code size} when {@code threads} were asked for: within the cap. */
  public int threadsRun(long size, int threads) {
    long byCap = Math.max(1, dataCapBytes / size);
    return (int) Math.min(threads, byCap);
  }

  /**
   * Operations each of {@code threadsRun} threads does per round at {@code size}: enough for
   * {@link #roundBytes} in all, between {@link #minOps} and {@link #maxOps} operations in all, and
   * at least {@link #minSteps} per thread.
   */
  public int opsPerThread(long size, int threadsRun) {
    if (fixedOps != null) {
      return fixedOps;
    }
    long total = Math.max(minOps, Math.min(maxOps, (roundBytes + size - 1) / size));
    return (int) Math.max(minSteps, (total + threadsRun - 1) / threadsRun);
  }

  private static final Pattern SIZE =
      Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(b|kib|mib|gib|kb|mb|gb|k|m|g)?\\s*",
          Pattern.CASE_INSENSITIVE);

  /**
   * A size as typed: a number of bytes, or with a unit. KiB, MiB, GiB (and K, M, G) are powers of
   * two; KB, MB, GB powers of ten, so the paper's 40 MB is {@code 40MB} = 40,000,000 bytes.
   *
   * @throws IllegalArgumentException if it is not a size or not a whole number of bytes
   */
  public static long parseSize(String text) {
    Matcher m = SIZE.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a size: \"" + text + "\" (e.g. 64KiB, 8MiB, 40MB,"
          + " 1048576)");
    }
    String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
    double factor;
    switch (unit) {
      case "b":
        factor = 1;
        break;
      case "k":
      case "kib":
        factor = 1 << 10;
        break;
      case "m":
      case "mib":
        factor = MIB;
        break;
      case "g":
      case "gib":
        factor = 1 << 30;
        break;
      case "kb":
        factor = 1e3;
        break;
      case "mb":
        factor = 1e6;
        break;
      default:
        factor = 1e9;
    }
    double bytes = Double.parseDouble(m.group(1)) * factor;
    if (bytes != Math.rint(bytes) || bytes > Long.MAX_VALUE) {
      throw new IllegalArgumentException("not a whole number of bytes: \"" + text + "\"");
    }
    return (long) bytes;
  }

  /** A size as people read it: "64 KiB", "8 MiB", "40 MB", or bytes. */
  public static String formatSize(long bytes) {
    if (bytes >= MIB && bytes % MIB == 0) {
      return bytes / MIB + " MiB";
    }
    if (bytes >= 1_000_000 && bytes % 1_000_000 == 0) {
      return bytes / 1_000_000 + " MB";
    }
    if (bytes >= 1024 && bytes % 1024 == 0) {
      return bytes / 1024 + " KiB";
    }
    return bytes + " B";
  }

  /** The same as {@link #formatSize}, without spaces: for file and key names. */
  public static String sizeTag(long bytes) {
    return formatSize(bytes).replace(" ", "");
  }
}
