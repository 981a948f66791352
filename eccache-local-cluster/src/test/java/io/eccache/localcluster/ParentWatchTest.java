package io.eccache.localcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A cluster's attached children die with the JVM that started them even when it is SIGKILLed: real
 * processes, the parent played by a {@code sleep} killed with SIGKILL.
 */
class ParentWatchTest {
  /** A child's real main: blocks for a minute, as a server would run. */
  public static final class Server {
    public static void main(String[] args) throws InterruptedException {
      System.out.println("serving " + String.join(" ", args));
      Thread.sleep(60_000);
    }
  }

  private static Process child(long parentPid) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), ParentWatch.class.getName(),
        String.valueOf(parentPid), Server.class.getName(), "a", "b"));
    return new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
  }

  @Test
  void aChildHaltsSoonAfterItsParentIsKilled() throws Exception {
    Process parent = new ProcessBuilder("sleep", "120").start();
    Process child = child(parent.pid());
    try {
      assertTrue(!child.waitFor(2, TimeUnit.SECONDS), "the child runs while its parent lives");
      parent.destroyForcibly(); // SIGKILL: the parent's own hooks never run
      assertTrue(parent.waitFor(10, TimeUnit.SECONDS));
      assertTrue(child.waitFor(10, TimeUnit.SECONDS), "the child outlived its parent");
      assertEquals(137, child.exitValue());
    } finally {
      parent.destroyForcibly();
      child.destroyForcibly();
    }
  }

  @Test
  void aChildWhoseParentIsAlreadyGoneDoesNotStart() throws Exception {
    Process parent = new ProcessBuilder("true").start();
    assertTrue(parent.waitFor(10, TimeUnit.SECONDS));
    Process child = child(parent.pid());
    try {
      assertTrue(child.waitFor(10, TimeUnit.SECONDS));
      assertEquals(137, child.exitValue());
    } finally {
      child.destroyForcibly();
    }
  }

  @Test
  void theWrappedCommandNamesThisJvmAndTheRealMain() {
    assertEquals(List.of(ParentWatch.class.getName(),
        String.valueOf(ProcessHandle.current().pid()), "alluxio.worker.AlluxioWorker", "x"),
        ParentWatch.wrap("alluxio.worker.AlluxioWorker", List.of("x")));
    assertTrue(new File(ParentWatch.codeLocation().toString()).exists());
  }
}
