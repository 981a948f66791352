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

/**
 * {@code eccache rm KEY...}: deletes objects from the cache and from S3, as {@code alluxio fs rm}
 * does; {@code --cache-only} evicts them from the cache and keeps their S3 copies.
 */
@Command(name = "rm", mixinStandardHelpOptions = true,
    description = "Delete KEYs: from eccache and from S3 (a later get finds them nowhere). With"
        + " --cache-only, only evict them from eccache; their S3 copies stay and a later get"
        + " reads them back.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:removed", "1:failed", "2:bad command line",
        "3:a key did not exist (the others were removed; -f ignores this)", "4:cluster unavailable"})
final class RemoveCommand implements Callable<Integer>, ClusterCommand {
  @Parameters(paramLabel = "KEY", arity = "1..*", description = "Keys to remove.")
  List<String> keys;

  @Option(names = {"-f", "--force"}, description = "A missing key is not an error.")
  boolean force;

  @Option(names = "--cache-only", description = "Evict from the cache only; keep the S3 copy.")
  boolean cacheOnly;

  @Mixin ClusterOptions cluster;
  @Mixin OutputOptions output;
  @Spec CommandSpec spec;

  @Override
  public ClusterOptions cluster() {
    return cluster;
  }

  @Override
  public Integer call() throws Exception {
    List<String> missing = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    try (EcCacheClient cache = cluster.connect()) {
      for (String key : keys) {
        ((cacheOnly ? cache.evict(key) : cache.delete(key)) ? removed : missing).add(key);
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
