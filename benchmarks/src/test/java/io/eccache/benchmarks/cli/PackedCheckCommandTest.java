package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.testkit.SharedCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * LogECMem's acceptance run end to end at a tiny size: values through the API, the CLI and
 * {@code alluxio fs}, every value read back and every stripe scrubbed, all of it in the summary.
 */
class PackedCheckCommandTest {
  /** It starts its own in-process cluster: close this JVM's shared cluster, if any, first. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();

  @Test
  void valuesThroughEveryPathReadBackAndEveryStripeAgrees(@TempDir Path report) throws Exception {
    CapturedRun run = CapturedRun.of(() -> new CommandLine(new EcCacheBench()).execute(
        "packed-check", "--values", "240", "--ops", "240", "--workers", "5", "--code", "3-2",
        "--unit", "2KB", "--min-bytes", "300", "--max-bytes", "900", "--via-commands-every", "10",
        "--out", report.toString()));
    assertEquals(0, run.exit, run.stdout);
    String summary = Files.readString(report.resolve("summary.md"), StandardCharsets.UTF_8);
    assertTrue(summary.contains("`kv=packed-3-2:hybrid:2KB`"), summary);
    // One op in ten per thread through each command: both paths ran, reads and writes.
    for (String via : new String[] {"CLI", "FS"}) {
      Matcher row = Pattern.compile("\\| " + via + " \\| (\\d+) \\| (\\d+) \\|").matcher(summary);
      assertTrue(row.find(), summary);
      assertTrue(Integer.parseInt(row.group(1)) + Integer.parseInt(row.group(2)) > 0, summary);
    }
    assertTrue(summary.contains("| failed ops | 0 |"), summary);
    Matcher values = Pattern.compile("(\\d+) present, (\\d+) deleted, 0 wrong").matcher(summary);
    assertTrue(values.find(), summary);
    assertEquals(240, Integer.parseInt(values.group(1)) + Integer.parseInt(values.group(2)));
    Matcher stripes = Pattern.compile("stripes scrubbed \\| (\\d+): (\\d+) cached parities, (\\d+)"
        + " on log nodes; 0 disagreements").matcher(summary);
    assertTrue(stripes.find(), summary);
    assertTrue(Integer.parseInt(stripes.group(1)) > 0, "some stripes sealed: " + summary);
    assertEquals(Integer.parseInt(stripes.group(1)), Integer.parseInt(stripes.group(3)),
        "RS(3, 2): one log parity per stripe");
    assertTrue(summary.contains("Result: **OK**"), summary);
  }
}
