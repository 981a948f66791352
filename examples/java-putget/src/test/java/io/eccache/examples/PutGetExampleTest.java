package io.eccache.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import io.eccache.client.EcCacheClient;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Runs the plain Java example, as README shows it, against a real 6-worker cluster. */
class PutGetExampleTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(6));

  @Test
  void examplePutsAndGetsEveryObjectIntactAndCleansUp(EmbeddedCluster cluster) throws Exception {
    // The way main() builds its configuration from "host:port", not the cluster's global one.
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(PropertyKey.MASTER_HOSTNAME, "127.0.0.1");
    conf.set(PropertyKey.MASTER_RPC_PORT, Configuration.getInt(PropertyKey.MASTER_RPC_PORT));
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    boolean ok;
    try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      ok = PutGetExample.run(conf, out);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    assertTrue(ok, output);
    assertTrue(output.contains("examples/small: 100000 bytes ok"), output);
    assertTrue(output.contains("examples/medium: 6291456 bytes ok"), output);
    assertTrue(output.contains("examples/large: 20971520 bytes ok"), output);
    // The fixed code was kept as given: 4 data + 1 parity split.
    assertTrue(output.contains("RS(4,1)"), output);
    try (EcCacheClient cache = EcCacheClient.create(conf)) {
      assertEquals(List.of(), cache.list("examples/"), "the example deletes what it stored");
    }
  }
}
