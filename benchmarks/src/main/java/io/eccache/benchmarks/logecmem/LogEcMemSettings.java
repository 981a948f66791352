package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import java.util.List;

/** What a LogECMem evaluation run measures, by profile, with the command line's overrides. */
final class LogEcMemSettings {
  /** RS(k, r) codes of the paper's Figs. 11, 12 and 14. */
  static final List<int[]> PAPER_CODES = List.of(new int[] {6, 3}, new int[] {10, 4},
      new int[] {12, 4}, new int[] {15, 3});
  /** The read:update mixes of Fig. 11. */
  static final List<KvMix> UPDATE_MIXES = List.of(KvMix.readUpdate(95, 5),
      KvMix.readUpdate(80, 20), KvMix.readUpdate(70, 30), KvMix.readUpdate(50, 50));

  /** Fig. 13's wide codes, r = 4. */
  static final List<int[]> WIDE_CODES = List.of(new int[] {16, 4}, new int[] {32, 4},
      new int[] {64, 4}, new int[] {128, 4});

  String profile = "quick";
  /** As many values as requests, as the paper (1M of each), so FSMem holds (1 + p) of them. */
  long records = 4_000;
  long operations = 4_000;
  int repeats = 3;
  int valueBytes = 4096;
  List<int[]> codes = PAPER_CODES;
  List<int[]> wideCodes = WIDE_CODES;
  /** Values loaded and requests per run of the wide codes (Fig. 13): fewer, 132 nodes' worth. */
  long wideRecords = 2_000;
  long wideOperations = 2_000;
  /** Real memcached servers a testbed starts at most; more DRAM nodes share them. */
  int servers = 20;
  List<KvMix> mixes = UPDATE_MIXES;
  Testbed.Issue issue = Testbed.Issue.SERIAL;
  /** Log nodes in processes of their own (benchmarks) or in this JVM (tests). */
  boolean logNodeProcesses = true;
  /** How the proxy reaches the log nodes. */
  LogWire wire = LogWire.SOCKET;

  /** The profile's sizes: {@code quick} (minutes), {@code full} (100,000 of each, hours). */
  static LogEcMemSettings profile(String name) {
    LogEcMemSettings s = new LogEcMemSettings();
    s.profile = name;
    switch (name) {
      case "quick":
        break;
      case "full":
        s.records = 100_000;
        s.operations = 100_000;
        s.wideRecords = 30_000;
        s.wideOperations = 30_000;
        break;
      default:
        throw new IllegalArgumentException("no profile '" + name + "': give quick or full");
    }
    return s;
  }

  /** Run-phase requests done before the measured ones (JIT, connections): a tenth. */
  int warmup() {
    return warmup(operations);
  }

  /** The same for a run of {@code requests}. */
  static int warmup(long requests) {
    return (int) Math.min(requests / 10, 10_000);
  }

  /**
   * memcached's item memory per server, MiB: room for every unit three times over on each of the
   * DRAM nodes it carries.
   */
  int memcachedMiB(int k, NodeMap nodes) {
    long perNode = 3 * Math.max(records, wideRecords) * (long) valueBytes / Math.max(1, k);
    return (int) Math.max(64, perNode * nodes.nodesPerServer()[1] >> 20);
  }

  static String code(int[] code) {
    return "(" + code[0] + "," + code[1] + ")";
  }
}
