package io.eccache.examples;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import io.eccache.client.EcCacheClient;
import io.eccache.client.ObjectStat;
import io.eccache.client.PutOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Random;

/**
 * PUT and GET through eccache from a plain Java program.
 *
 * <pre>
 * java -cp eccache-client-shaded-0.2.0.jar:slf4j-api-1.7.30.jar:slf4j-simple-1.7.30.jar:classes \
 *     io.eccache.examples.PutGetExample [master-host:port]
 * </pre>
 *
 * <p>The shaded client and an SLF4J binding are all it needs (ShadedJarAloneIT runs it so).
 *
 * <p>Without an argument the master is found as any Alluxio client finds it
 * ({@code alluxio-site.properties}, {@code -Dalluxio.master.hostname=...}). It stores three objects,
 * reads each back, compares the bytes and deletes them; the exit status is 0 only if every byte
 * matched.
 */
public final class PutGetExample {
  private PutGetExample() {}

  /** Runs the example; exits 1 if any object came back different. */
  public static void main(String[] args) throws IOException {
    InstancedConfiguration conf = Configuration.copyGlobal();
    if (args.length > 0) {
      String[] hostPort = args[0].split(":");
      conf.set(PropertyKey.MASTER_HOSTNAME, hostPort[0]);
      conf.set(PropertyKey.MASTER_RPC_PORT, Integer.parseInt(hostPort[1]));
    }
    boolean ok = run(conf, System.out);
    if (!ok) {
      System.exit(1);
    }
  }

  /** The example itself: returns whether every object read back equal to what was stored. */
  public static boolean run(InstancedConfiguration conf, PrintStream out) throws IOException {
    boolean ok = true;
    // One client per application: it owns the connections and the I/O threads.
    try (EcCacheClient cache = EcCacheClient.create(conf)) {
      // 1. The coordinator's choice: below alluxio.eccache.small.object.threshold (1 MB) that is
      //    whole copies, above it k data + r parity splits.
      byte[] small = randomBytes(1, 100_000);
      cache.put("examples/small", small);
      ok &= check(out, "examples/small", small, cache.get("examples/small"));

      // 2. A fixed code: 4 data splits + 1 parity split on 5 distinct workers; any 4 rebuild it.
      byte[] medium = randomBytes(2, 6 << 20);
      cache.put("examples/medium", medium, PutOptions.code(4, 1));
      ok &= check(out, "examples/medium", medium, cache.get("examples/medium"));
      ObjectStat stat = cache.stat("examples/medium");
      out.println(stat);  // scheme, code, live splits, popularity

      // 3. Streamed both ways: neither side holds the whole object in memory.
      byte[] large = randomBytes(3, 20 << 20);
      cache.put("examples/large", new ByteArrayInputStream(large), large.length,
          PutOptions.code(4, 1));
      byte[] back;
      try (InputStream in = cache.openStream("examples/large")) {
        back = in.readAllBytes();
      }
      ok &= check(out, "examples/large", large, back);

      for (String key : cache.list("examples/")) {
        cache.delete(key);
      }
    }
    out.println(ok ? "all objects read back intact" : "MISMATCH");
    return ok;
  }

  private static boolean check(PrintStream out, String key, byte[] expected, byte[] actual) {
    boolean same = Arrays.equals(expected, actual);
    out.printf("%s: %d bytes %s%n", key, expected.length, same ? "ok" : "DIFFER");
    return same;
  }

  private static byte[] randomBytes(long seed, int size) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }
}
