package io.eccache.benchmarks.kv;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * YCSB's core workload as LogECMem's evaluation runs it, seeded: a load phase that inserts
 * {@code records} keys, then {@code operations} requests in a {@link KvMix}, reads and updates
 * choosing keys by YCSB's scrambled Zipf (θ 0.99) over the keys inserted so far, writes inserting
 * new keys in sequence. Keys are YCSB's: {@code "user"} and the FNV hash of the key's number
 * (about 20 bytes). The same settings and seed make the same trace on any machine.
 */
public final class KvWorkload {
  private final long records;
  private final long operations;
  private final KvMix mix;
  private final long seed;

  /**
   * @param records keys inserted by the load phase, at least 1
   * @param operations requests of the run phase, at least 0
   * @param mix the run phase's requests
   * @param seed the draws' seed
   */
  public KvWorkload(long records, long operations, KvMix mix, long seed) {
    if (records < 1 || operations < 0) {
      throw new IllegalArgumentException("a workload needs at least one record and no negative"
          + " count of operations, got " + records + " records, " + operations + " operations");
    }
    this.records = records;
    this.operations = operations;
    this.mix = mix;
    this.seed = seed;
  }

  /** YCSB's name of key number {@code n}: {@code "user" + fnv64(n)}. */
  public static String keyName(long n) {
    return "user" + ScrambledZipf.fnv64(n);
  }

  /** The trace: the load phase's inserts, then the run phase's requests. */
  public KvTrace generate() {
    SplittableRandom root = new SplittableRandom(seed);
    SplittableRandom kinds = root.split();
    // As YCSB: the key chooser spans the keys a run may insert (twice the expected count), and a
    // draw past the last key inserted is drawn again.
    long expectedNew = mix.other() == KvOp.Kind.INSERT
        ? (long) (operations * mix.otherPercent() / 100.0 * 2) : 0;
    ScrambledZipf keys = new ScrambledZipf(records + expectedNew, root.split());
    List<KvOp> load = new ArrayList<>();
    for (long n = 0; n < records; n++) {
      load.add(new KvOp(KvOp.Kind.INSERT, keyName(n)));
    }
    List<KvOp> run = new ArrayList<>();
    long inserted = records;
    for (long i = 0; i < operations; i++) {
      boolean read = kinds.nextInt(100) < mix.readPercent();
      if (!read && mix.other() == KvOp.Kind.INSERT) {
        run.add(new KvOp(KvOp.Kind.INSERT, keyName(inserted++)));
        continue;
      }
      long n;
      do {
        n = keys.next();
      } while (n >= inserted);
      run.add(new KvOp(read ? KvOp.Kind.READ : KvOp.Kind.UPDATE, keyName(n)));
    }
    return new KvTrace(describe(), load, run);
  }

  /** The settings, as a trace file's header names them. */
  public String describe() {
    return "ycsb records=" + records + " operations=" + operations + " mix=" + mix + " zipf="
        + ScrambledZipf.THETA + " seed=" + seed;
  }
}
