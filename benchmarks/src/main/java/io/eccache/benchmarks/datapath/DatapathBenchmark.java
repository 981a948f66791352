package io.eccache.benchmarks.datapath;

import alluxio.client.block.BlockMasterClient;
import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.client.file.URIStatus;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.grpc.WorkerNetAddress;
import alluxio.resource.CloseableResource;
import io.eccache.client.EcCacheClient;
import io.eccache.client.PutOptions;
import io.eccache.client.WriteMode;
import io.eccache.common.ClientKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs the data-path comparison on a cluster: for each object size it stores the same objects
 * three ways (eccache, k pinned plain files, one plain file), then for each thread count runs a
 * warm-up of every variant and the measured rounds, every variant once per round in a
 * shuffled order, so slow drifts of the machine fall on all of them alike and ratios can be paired
 * per round.
 *
 * <p>A variant's round is a number of <em>steps</em>: in a step each of the N client threads does
 * one operation, all starting together; the step ends when the last one has. Wall time is summed
 * over the steps, so comparing every GET's bytes with the data written, between steps, is not in
 * it; CPU ({@link ProcessCpu}) is counted from the first step's start to the last one's end, less
 * the measuring thread's, which does that comparing. What PUTs wrote is deleted after the round.
 * Latency is each operation's own. Before each variant's round a full GC runs, so one variant's
 * garbage is not collected on the next one's time.
 */
public final class DatapathBenchmark {
  /** The Alluxio directory the plain files go under. */
  public static final String ROOT = "/eccache-datapath";
  /** The prefix of eccache's keys. */
  public static final String KEY_PREFIX = "eccache-datapath/";

  private final FileSystemContext context;
  private final FileSystem fs;
  private final List<WorkerNetAddress> workers;
  private final Consumer<String> progress;
  /** The cluster's processes other than this one, and the side each works for. */
  private final Map<Long, CpuSide> servers = new HashMap<>();
  private int ioThreads;
  /** Settling passes run, in all cells. */
  private int settlingPasses;
  /** The JIT's share of the CPU of each cell's last settling pass. */
  private final List<Double> settledShares = new ArrayList<>();

  /**
   * @param context the Alluxio context eccache's client shares with the plain files' client
   * @param fs a client of the same cluster for the plain files
   * @param workers the workers plain files are pinned to (at least k)
   * @param progress one line per measured variant and round
   */
  public DatapathBenchmark(FileSystemContext context, FileSystem fs,
      List<WorkerNetAddress> workers, Consumer<String> progress) {
    this.context = context;
    this.fs = fs;
    this.workers = List.copyOf(workers);
    this.progress = progress;
  }

  /**
   * Counts the CPU of a cluster whose master and workers run as processes of their own: their
   * threads' run time goes to the master's and the workers' columns, their GC and JIT threads'
   * to the gc and jit columns.
   */
  public DatapathBenchmark withServerProcesses(long masterPid, List<Long> workerPids) {
    requireExactCpu();
    servers.put(masterPid, CpuSide.MASTER);
    for (long pid : workerPids) {
      servers.put(pid, CpuSide.WORKERS);
    }
    return this;
  }

  /**
   * Counts the CPU of the S3 API server the cluster's under store is, a process on this machine
   * (s3proxy), in the s3 column and the total: it takes these cores' time as S3 would not. Where
   * Linux's per-thread run times are missing nothing is counted by side, this server's neither.
   */
  public DatapathBenchmark withUnderStoreProcess(long pid) {
    if (ProcessCpu.exact()) {
      servers.put(pid, CpuSide.S3);
    }
    return this;
  }

  private static void requireExactCpu() {
    if (!ProcessCpu.exact()) {
      throw new IllegalStateException("counting other processes' CPU needs Linux's per-thread"
          + " run times (/proc/<pid>/task/*/schedstat)");
    }
  }

  /**
   * How the settling passes ended, for the report: the JIT's share of each cell's last pass, or
   * why none ran.
   */
  public String settling(DatapathSettings s) {
    if (settledShares.isEmpty()) {
      return "no settling passes (" + (s.maxSettlePasses == 0 ? "none asked for"
          : "no per-thread run times to tell the JIT's from") + ")";
    }
    return String.format(Locale.ROOT, "after the warm-ups, unmeasured passes of every"
        + " variant until the JIT compilers took at most %.0f%% of a pass's CPU (at most %d"
        + " passes; %d passes in all, the last of each cell at %.1f-%.1f%%)",
        100 * s.jitSettledShare, s.maxSettlePasses, settlingPasses,
        100 * Collections.min(settledShares), 100 * Collections.max(settledShares));
  }

  /** eccache's split I/O threads, which the pk variant's pool matches (known after a run). */
  public int ioThreads() {
    return ioThreads;
  }

  /** Runs every size, thread count and round of {@code s}; returns one result per variant each. */
  public List<RoundResult> run(DatapathSettings s) throws IOException {
    s.check();
    if (workers.size() < s.k) {
      throw new IllegalArgumentException("the pk variant needs " + s.k + " workers to pin its"
          + " parts to, the cluster has " + workers.size());
    }
    ProcessCpu.processNanos(); // fails now, not after setup, on a JVM without the counter
    List<RoundResult> results = new ArrayList<>();
    int maxThreads = Collections.max(s.threads);
    long empty = s.removalTimeoutMs > 0 ? usedBytes() : 0;
    try (EcCacheClient eccache = EcCacheClient.create(context)) {
      ioThreads = context.getClusterConf().getInt(ClientKeys.IO_THREADS);
      ExecutorService io = Executors.newFixedThreadPool(ioThreads, daemon("datapath-pk-io-"));
      ExecutorService clients = Executors.newFixedThreadPool(maxThreads,
          daemon("datapath-client-"));
      try {
        PlainFiles files = new PlainFiles(fs, io, workers, s.k, s.stepTimeoutMs);
        for (long size : s.sizes) {
          StoredObjects objects = store(s, size, eccache, files);
          long stored = s.removalTimeoutMs > 0 ? usedBytes() : 0;
          for (int threads : s.threads) {
            Cell cell = new Cell(s, objects, threads, eccache, files, clients, stored);
            for (Variant v : s.variants()) {
              cell.warmUp(v, s.warmupMs);
            }
            cell.settleJit();
            for (int round = 1; round <= s.rounds; round++) {
              List<Variant> order = roundOrder(s, size, threads, round);
              for (int i = 0; i < order.size(); i++) {
                RoundResult r = cell.measure(order.get(i), round, i + 1, cell.opsPerThread,
                    true);
                results.add(r);
                progress.accept(String.format(Locale.ROOT,
                    "%s, %d thread(s)%s, round %d/%d: %s %s %.1f MiB/s, %.2f ms CPU/MiB",
                    DatapathSettings.formatSize(size), threads,
                    cell.threadsRun < threads ? " (" + cell.threadsRun + " run)" : "", round,
                    s.rounds, r.variant.op(), r.variant.label(s.k, s.r), r.mibPerSecond(),
                    r.cpuMsPerMib()));
              }
            }
          }
          remove(objects, eccache, files);
          if (s.removalTimeoutMs > 0) {
            awaitRemoved(empty, s.removalTimeoutMs, "the stored objects of "
                + DatapathSettings.formatSize(size));
          }
        }
      } finally {
        clients.shutdownNow();
        io.shutdownNow();
      }
    }
    return results;
  }

  /** The objects of one size, stored every way, and the data they hold. */
  private static final class StoredObjects {
    final long size;
    final String tag;
    final byte[][] data;
    final String[] keys;
    final PlainFiles.Parts[] parts;
    final URIStatus[] plain;

    StoredObjects(long size, int count) {
      this.size = size;
      this.tag = DatapathSettings.sizeTag(size);
      this.data = new byte[count][];
      this.keys = new String[count];
      this.parts = new PlainFiles.Parts[count];
      this.plain = new URIStatus[count];
    }
  }

  private StoredObjects store(DatapathSettings s, long size, EcCacheClient eccache,
      PlainFiles files) throws IOException {
    int count = s.objectsFor(size);
    StoredObjects o = new StoredObjects(size, count);
    progress.accept(String.format(Locale.ROOT, "%s: storing %d object(s) three ways",
        DatapathSettings.formatSize(size), count));
    String dir = ROOT + "/get/" + o.tag;
    files.mkdirs(dir);
    PutOptions code = putOptions(s, size);
    for (int i = 0; i < count; i++) {
      o.data[i] = new byte[Math.toIntExact(size)];
      new Random(s.seed * 31 + size + i).nextBytes(o.data[i]);
      o.keys[i] = KEY_PREFIX + "get/" + o.tag + "/o" + i;
      eccache.put(o.keys[i], o.data[i], code);
      o.parts[i] = files.status(files.writeParts(dir + "/pk-o" + i, o.data[i], i, 0),
          o.data[i].length, i);
      String plain = dir + "/plain-o" + i;
      files.writeOne(plain, o.data[i], i);
      o.plain[i] = files.status(plain, i);
    }
    return o;
  }

  private static void remove(StoredObjects o, EcCacheClient eccache, PlainFiles files)
      throws IOException {
    for (String key : o.keys) {
      eccache.delete(key);
    }
    files.deleteAll(ROOT + "/get/" + o.tag);
  }

  /**
   * The order the variants run in, in one round of one cell: shuffled by a generator seeded from
   * the run's seed and the cell and round through SplittableRandom's mixing. java.util.Random
   * seeded with the neighbouring numbers themselves (as until {@code 9006e99}) starts nearly the
   * same way for each, so a variant kept its place round after round (eccache last in all five
   * rounds of a cell).
   */
  static List<Variant> roundOrder(DatapathSettings s, long size, int threads, int round) {
    List<Variant> order = s.variants();
    long cell = s.seed * 1_000_003L + size * 31 + threads * 7919L + round;
    Collections.shuffle(order, new Random(new SplittableRandom(cell).nextLong()));
    return order;
  }

  /** Bytes the workers hold in all, as their commits and heartbeats told the block master. */
  private long usedBytes() throws IOException {
    try (CloseableResource<BlockMasterClient> master =
        context.acquireBlockMasterClientResource()) {
      return master.get().getUsedBytes();
    }
  }

  /**
   * Waits until the workers hold at most {@code held} bytes: what was deleted is gone from their
   * tiers (eccache's deleted objects after the master's retired grace and sweep, plain files'
   * after a worker heartbeat). Returns how long it waited.
   */
  private long awaitRemoved(long held, long timeoutMs, String what) throws IOException {
    long began = System.nanoTime();
    long deadline = began + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    for (long used = usedBytes(); used > held; used = usedBytes()) {
      if (System.nanoTime() - deadline > 0) {
        throw new DeadlineExceededException("the workers still held " + (used - held)
            + " bytes more than " + held + " after " + timeoutMs + " ms of waiting for them to"
            + " remove " + what + ": the master has not had them removed; look at the master's"
            + " log (alluxio.master.eccache.retired.grace) and the workers' block removal");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for the workers to remove " + what, e);
      }
    }
    return System.nanoTime() - began;
  }

  /**
   * RS(k, r), except below the small-object threshold: there a PUT without a scheme, which the
   * coordinator stores as whole copies, as it does every user's small object.
   */
  static PutOptions putOptions(DatapathSettings s, long size) {
    PutOptions options = size < DatapathSettings.SMALL_OBJECT_THRESHOLD ? PutOptions.defaults()
        : PutOptions.code(s.k, s.r);
    return options.writeMode(WriteMode.CACHE_ONLY);
  }

  /** One object size and thread count: runs a variant's steps and measures them. */
  private final class Cell {
    final DatapathSettings s;
    final StoredObjects objects;
    final int threads;
    final int threadsRun;
    final int opsPerThread;
    final EcCacheClient eccache;
    final PlainFiles files;
    final ExecutorService clients;
    final PutOptions code;
    final boolean exactCpu = ProcessCpu.exact();
    /** What the workers hold with this size's stored objects and nothing deleted pending. */
    final long stored;

    Cell(DatapathSettings s, StoredObjects objects, int threads, EcCacheClient eccache,
        PlainFiles files, ExecutorService clients, long stored) {
      this.stored = stored;
      this.s = s;
      this.objects = objects;
      this.threads = threads;
      this.threadsRun = s.threadsRun(objects.size, threads);
      this.opsPerThread = s.opsPerThread(objects.size, threadsRun);
      this.eccache = eccache;
      this.files = files;
      this.clients = clients;
      this.code = putOptions(s, objects.size);
    }

    /** One operation's outcome: the object, what a GET returned, how long it took. */
    private final class Done {
      final int object;
      final byte[] got;
      final long nanos;

      Done(int object, byte[] got, long nanos) {
        this.object = object;
        this.got = got;
        this.nanos = nanos;
      }
    }

    /**
     * Runs {@code v} unmeasured for at least {@code millis} and at least one step: 1, 2, 4, ...
     * steps at a time, so the GC before each call is not most of the time.
     */
    void warmUp(Variant v, long millis) throws IOException {
      long ends = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
      int steps = 1;
      do {
        measure(v, 0, 0, steps, false); // the removals' wait would eat the warm-up's time
        steps = Math.min(steps * 2, 1024);
      } while (System.nanoTime() - ends < 0);
    }

    /**
     * Unmeasured passes of every variant, each like a round, until the JIT compilers' share of a
     * pass's CPU is at most {@link DatapathSettings#jitSettledShare} (or
     * {@link DatapathSettings#maxSettlePasses} passes ran): compiling that goes on after the
     * warm-ups lands on whichever variant runs meanwhile, a round's noise rather than its cost.
     * Without per-thread run times (no JIT side) it runs none.
     */
    void settleJit() throws IOException {
      if (!exactCpu) {
        return;
      }
      double share = 1;
      for (int pass = 1; pass <= s.maxSettlePasses && share > s.jitSettledShare; pass++) {
        long jit = 0;
        long cpu = 0;
        for (Variant v : s.variants()) {
          RoundResult r = measure(v, 0, 0, opsPerThread, true);
          jit += r.cpuNanosBySide.getOrDefault(CpuSide.JIT, 0L);
          cpu += r.cpuNanos;
        }
        share = cpu == 0 ? 0 : jit / (double) cpu;
        settlingPasses++;
        progress.accept(String.format(Locale.ROOT,
            "%s, %d thread(s): settling pass %d, the JIT's share of its CPU %.1f%%",
            DatapathSettings.formatSize(objects.size), threads, pass, 100 * share));
      }
      if (s.maxSettlePasses > 0) {
        settledShares.add(share);
      }
    }

    /**
     * Runs {@code steps} steps of {@code v}. CPU is counted over the span from the first step's
     * start to the last one's end, less the measuring thread's own (it checks bytes between
     * steps); nothing else runs in between: the PUTs' directories are made before and what they
     * wrote is deleted after. With {@code awaitRemovals}, it first waits until the workers have
     * removed what earlier PUTs deleted, so that no variant's span holds another's removals
     * (eccache's come a retired grace after its round, the files' a heartbeat after theirs).
     */
    RoundResult measure(Variant v, int round, int order, int steps, boolean awaitRemovals)
        throws IOException {
      RoundResult result = new RoundResult(v, objects.size, threads, threadsRun, round, order);
      if (awaitRemovals && s.removalTimeoutMs > 0) {
        result.removalWaitNanos = awaitRemoved(stored, s.removalTimeoutMs,
            "what earlier PUTs deleted");
      }
      String base = objects.tag + "-t" + threads + "-r" + round + "-" + v.kind();
      String roundDir = ROOT + "/put/" + base;
      boolean writesFiles = !v.isGet() && v != Variant.PUT_ECCACHE; // plain files' PUTs
      for (int step = 0; writesFiles && step < steps; step++) {
        files.mkdirs(roundDir + "/s" + step);
      }
      String what = v.op() + " " + v.label(s.k, s.r) + " of " + DatapathSettings.formatSize(
          objects.size) + " objects with " + threadsRun + " thread(s)";
      int count = objects.data.length;
      List<String> keys = new ArrayList<>();
      System.gc(); // the previous variant's garbage is not collected on this one's time
      ProcessCpu.Snapshot cpuBefore = exactCpu ? ProcessCpu.snapshot(servers) : null;
      long processBefore = ProcessCpu.processNanos();
      long selfBefore = ProcessCpu.selfNanos();
      long decodesBefore = eccache.readStatistics().decodes();
      long hedgesBefore = eccache.readStatistics().hedges();
      for (int step = 0; step < steps; step++) {
        List<Callable<Done>> tasks = new ArrayList<>();
        for (int t = 0; t < threadsRun; t++) {
          int slot = step * threadsRun + t;
          int object = Math.floorMod(slot + round, count);
          String key = KEY_PREFIX + "put/" + base + "-s" + step + "-" + t;
          if (v == Variant.PUT_ECCACHE) {
            keys.add(key);
          }
          String path = roundDir + "/s" + step + "/o" + t;
          tasks.add(() -> {
            long began = System.nanoTime();
            byte[] got = operate(v, object, key, path, slot + round);
            return new Done(object, got, System.nanoTime() - began);
          });
        }
        long began = System.nanoTime();
        List<Future<Done>> futures = new ArrayList<>();
        for (Callable<Done> t : tasks) {
          futures.add(clients.submit(t));
        }
        List<Done> done = awaitAll(futures, what, s.stepTimeoutMs);
        result.wallNanos += System.nanoTime() - began;
        for (Done d : done) {
          result.latencyMicros.recordValue(Math.max(1, d.nanos / 1000));
          result.ops++;
          result.bytes += objects.size;
          if (v.isGet()) {
            verify(d.got, objects.data[d.object], what + " (object " + d.object + ")");
            result.verifiedBytes += d.got.length;
          }
        }
      }
      long self = ProcessCpu.selfNanos() - selfBefore;
      result.processCpuNanos = ProcessCpu.processNanos() - processBefore - self;
      if (exactCpu) {
        result.cpuNanosBySide.putAll(ProcessCpu.since(cpuBefore, servers));
        result.cpuNanos = result.cpuNanosBySide.values().stream().mapToLong(Long::longValue).sum();
      } else {
        result.cpuNanos = result.processCpuNanos;
      }
      if (v == Variant.GET_ECCACHE) {
        result.decodes = eccache.readStatistics().decodes() - decodesBefore;
        result.hedges = eccache.readStatistics().hedges() - hedgesBefore;
      }
      for (String key : keys) {
        eccache.delete(key);
      }
      if (writesFiles) {
        files.deleteAll(roundDir);
      }
      return result;
    }

    private byte[] operate(Variant v, int object, String key, String path, int worker)
        throws IOException {
      switch (v) {
        case GET_ECCACHE:
          return eccache.get(objects.keys[object], s.delta);
        case GET_PK:
          return files.readParts(objects.parts[object]);
        case GET_PLAIN:
          return files.readOne(objects.plain[object]);
        case PUT_ECCACHE:
          eccache.put(key, objects.data[object], code);
          return null;
        case PUT_PK:
          files.writeParts(path, objects.data[object], worker, 0);
          return null;
        case PUT_PKR:
          files.writeParts(path, objects.data[object], worker, s.r);
          return null;
        case PUT_PLAIN:
          files.writeOne(path, objects.data[object], worker);
          return null;
        default:
          throw new IllegalStateException("unknown variant " + v);
      }
    }
  }

  /** Compares a GET's bytes with the data written; a difference ends the run. */
  static void verify(byte[] got, byte[] expected, String what) throws DataMismatchException {
    int at = got == null ? 0 : Arrays.mismatch(got, expected);
    if (got == null || at >= 0) {
      throw new DataMismatchException(what, expected.length, got == null ? -1 : got.length,
          got == null ? 0 : at);
    }
  }

  private static <T> List<T> awaitAll(List<Future<T>> futures, String what, long timeoutMs)
      throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    List<T> done = new ArrayList<>();
    try {
      for (Future<T> f : futures) {
        done.add(f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
      }
      return done;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw new IOException(what + " failed: " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      throw new DeadlineExceededException("a step of " + what + " took more than " + timeoutMs
          + " ms: the cluster is stuck or overloaded; take a jstack of this process");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted during " + what, e);
    } finally {
      for (Future<T> f : futures) {
        f.cancel(true); // no-op for those done
      }
    }
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
