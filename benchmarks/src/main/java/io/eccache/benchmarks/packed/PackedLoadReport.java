package io.eccache.benchmarks.packed;

import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.RunStamp;
import java.util.List;
import java.util.Locale;

/** The Markdown summary of a {@link PackedLoad} run. */
public final class PackedLoadReport {
  private PackedLoadReport() {}

  /**
   * The summary: the setup, the ops by kind and path, the phases' durations and what the checks
   * found (the first 20 problems of each kind listed).
   *
   * @param parityRows r, the stripes' parity rows: P1 cached, r - 1 on log nodes
   */
  public static String markdown(PackedLoad.Report r, PackedLoad.Settings s, String namespaces,
      int workers, int parityRows, RunStamp stamp) {
    StringBuilder md = new StringBuilder("# LogECMem acceptance run (packed-check)\n\n");
    md.append(stamp.markdown()).append("\n\n");
    md.append(String.format(Locale.ROOT, "In-process cluster of %d workers, each running a log"
        + " node (PLM); `%s`; %d values of %d-%d bytes PUT by %d threads, then %d mixed ops"
        + " (reads 50%%, same-size updates 40%%, resizing updates 5%%, deletes 5%%), one in %d"
        + " through the `eccache` CLI and one through `alluxio fs`; a maintainer sealing"
        + " throughout. Seed %d.%n%n", workers, namespaces, s.values, s.minBytes, s.maxBytes,
        s.threads, s.ops, s.viaCommandsEvery, s.seed));
    MarkdownTable ops = new MarkdownTable("path", "reads", "updates", "resizes", "deletes");
    for (PackedLoad.Via via : PackedLoad.Via.values()) {
      ops.row(via.name(), r.ops(via, PackedLoad.Kind.READ), r.ops(via, PackedLoad.Kind.UPDATE),
          r.ops(via, PackedLoad.Kind.RESIZE), r.ops(via, PackedLoad.Kind.DELETE));
    }
    md.append(ops).append('\n');
    MarkdownTable checks = new MarkdownTable("what", "result");
    checks.row("load phase", seconds(r.loadMs) + String.format(Locale.ROOT, " (%.0f PUTs/s)",
        s.values / Math.max(r.loadMs / 1000.0, 1e-3)));
    checks.row("mixed phase", seconds(r.mixedMs) + String.format(Locale.ROOT, " (%.0f ops/s)",
        s.ops / Math.max(r.mixedMs / 1000.0, 1e-3)));
    checks.row("updates made in place (EcCacheUpdatesInPlace)", r.updatesInPlace);
    checks.row("failed ops", r.failedOps.get());
    checks.row("reads by the API's or the shell's client of a version another client replaced"
        + " within the layout cache's TTL (documented)", r.previousWithinTtl.get());
    checks.row("log nodes flushed", r.buffered == 0 ? "yes, in " + seconds(r.flushMs)
        : r.buffered + " bytes still buffered after " + seconds(r.flushMs));
    checks.row("log nodes' disk", String.format(Locale.ROOT, "%d writes, %d reads, %d bytes of"
        + " log not merged yet", r.diskWrites, r.diskReads, r.logBytes));
    checks.row("values read back", String.format(Locale.ROOT, "%d present, %d deleted, %d wrong",
        r.present, r.absent, r.wrong.size()));
    checks.row("values still waiting for a stripe", r.unsealed);
    checks.row("stripes scrubbed", String.format(Locale.ROOT, "%d: %d cached parities, %d on log"
        + " nodes; %d disagreements", r.stripes, r.stripes, r.stripes * (parityRows - 1),
        r.disagreements.size()));
    checks.row("verify phase", seconds(r.verifyMs));
    md.append(checks).append('\n');
    problems(md, "Wrong values and failed ops", r.wrong);
    problems(md, "Parities that disagree", r.disagreements);
    md.append(r.ok() ? "Result: **OK**.\n" : "Result: **FAILED**.\n");
    return md.toString();
  }

  private static void problems(StringBuilder md, String title, List<String> found) {
    if (found.isEmpty()) {
      return;
    }
    md.append(title).append(" (").append(found.size()).append(", first 20):\n\n");
    synchronized (found) {
      found.stream().limit(20).forEach(line -> md.append("- ").append(line).append('\n'));
    }
    md.append('\n');
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }
}
