package io.eccache.benchmarks.logecmem;

import io.eccache.lognode.LogScheme;
import io.eccache.worker.StandaloneLogNode;
import java.nio.file.Paths;
import com.google.common.io.BaseEncoding;

/**
 * A log node of LogECMem's testbed in a JVM of its own: {@code LogNodeMain <host> <dir> <scheme>
 * <update key, hex> <PLM merge bytes>}. Prints {@value #READY}, its gRPC address and its socket's once it serves;
 * stops when its standard input closes.
 */
public final class LogNodeMain {
  static final String READY = "eccache-lognode serving ";

  private LogNodeMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: LogNodeMain <host> <dir> <scheme> <update key, hex> <merge"
          + " bytes>");
      System.exit(2);
    }
    try (StandaloneLogNode node = StandaloneLogNode.start(args[0],
        BaseEncoding.base16().decode(args[3]),
        LogNodeFleet.nodeConf(Paths.get(args[1]), LogScheme.valueOf(args[2]),
            Long.parseLong(args[4])))) {
      System.out.println(READY + node.address() + " " + node.socketAddress());
      System.out.flush();
      while (System.in.read() != -1) {
        // until the parent closes our input
      }
    }
  }
}
