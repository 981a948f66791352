package io.eccache.cli;

import io.eccache.client.EcCacheClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code eccache rm KEY...}: removes objects from the cache (their S3 copies stay). */
@Command(name = "rm", mixinStandardHelpOptions = true,
    description = "Remove KEYs from eccache (the objects' copies in S3, if any, are kept).",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:removed", "1:failed", "2:bad command line",
        "3:a key did not exist (the others were removed; -f ignores this)", "4:cluster unavailable"})
final class RemoveCommand implements Callable<Integer> {
  @Parameters(paramLabel = "KEY", arity = "1..*", description = "Keys to remove.")
  List<String> keys;

  @Option(names = {"-f", "--force"}, description = "A missing key is not an error.")
  boolean force;

  @Mixin ClusterOptions cluster;
  @Mixin OutputOptions output;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    List<String> missing = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    try (EcCacheClient cache = cluster.connect()) {
      for (String key : keys) {
        (cache.delete(key) ? removed : missing).add(key);
      }
    }
    if (output.json) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("removed", removed);
      result.put("missing", missing);
      Json.print(spec.commandLine().getOut(), result);
    } else {
      removed.forEach(k -> spec.commandLine().getOut().println("removed " + k));
      if (!force) {
        missing.forEach(k -> spec.commandLine().getErr().println("eccache rm: no object '" + k
            + "'"));
      }
    }
    return missing.isEmpty() || force ? ExitCodes.OK : ExitCodes.NOT_FOUND;
  }
}
