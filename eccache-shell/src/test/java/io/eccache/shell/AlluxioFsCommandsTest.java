package io.eccache.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.cli.fs.FileSystemShell;
import alluxio.conf.Configuration;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestUsers;
import com.google.common.io.BaseEncoding;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * eccache's commands in Alluxio's own, unmodified {@link FileSystemShell} (what {@code alluxio fs}
 * runs), found by its classpath scan, against a real cluster.
 */
class AlluxioFsCommandsTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(4)
      .workerMemoryBytes(64L << 20));
  private static FileSystemShell shell;

  @TempDir static Path dir;

  @BeforeAll
  static void start() throws Exception {
    CLUSTER.cluster();
    shell = new FileSystemShell(Configuration.global());
  }

  @AfterAll
  static void stop() throws Exception {
    if (shell != null) {
      shell.close();
    }
  }

  /**
   * Runs {@code alluxio fs args...}: exit status, stdout and stderr. (Alluxio's shell prints a
   * failed command's message on stdout.)
   */
  private static String[] fs(String... args) {
    return fs(shell, args);
  }

  private static String[] fs(FileSystemShell shell, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    int exit;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      exit = shell.run(args);
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
    return new String[] {String.valueOf(exit), out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void aRefusalReadsAsAlluxiosOwn() throws Exception {
    TestUsers.directory(CLUSTER.cluster().fileSystem(), "/fsperm", null, 0700);
    Path in = Files.write(dir.resolve("perm.bin"), new byte[] {4, 5, 6});
    assertEquals("0", fs("ecPut", in.toString(), "fsperm/x")[0]);
    try (FileSystemShell bob = new FileSystemShell(TestUsers.as(TestUsers.BOB))) {
      String[] plain = fs(bob, "ls", "/fsperm");
      for (String[] command : new String[][] {{"ecStat", "fsperm/x"}, {"ecRm", "fsperm/x"},
          {"ecGet", "fsperm/x", dir.resolve("bob.out").toString()}}) {
        String[] refused = fs(bob, command);
        assertEquals(plain[0], refused[0], "the exit status of Alluxio's own refusal");
        assertTrue(refused[1].contains("Permission denied") && refused[1].contains("/fsperm"),
            "Alluxio's reason and the path: " + refused[1]);
        assertEquals(1, refused[1].strip().lines().count(), refused[1]);
      }
    }
    assertEquals("0", fs("ecStat", "fsperm/x")[0], "the key is unharmed");
  }

  @Test
  void theShellListsTheCommands() {
    String[] help = fs("help");
    String all = help[1] + help[2];
    for (String command : new String[] {"ecPut", "ecGet", "ecStat", "ecRm", "copyFromLocal"}) {
      assertTrue(all.contains(command), command + " missing from `alluxio fs help`: " + all);
    }
  }

  @Test
  void putStatGetRemoveRoundTrip() throws Exception {
    byte[] data = new byte[3 * 1_000_000 + 17];
    new Random(7).nextBytes(data);
    Path in = Files.write(dir.resolve("in.bin"), data);
    String[] put = fs("ecPut", "-s", "rs-3-1", in.toString(), "fs/obj");
    assertEquals("0", put[0], put[1] + put[2]);
    assertTrue(put[1].contains("Stored fs/obj as RS(3,1)"), put[1]);

    String[] stat = fs("ecStat", "fs/obj");
    assertEquals("0", stat[0], stat[2]);
    assertTrue(stat[1].contains("3000017 bytes") && stat[1].contains("RS(3,1)")
        && stat[1].contains("4/4 splits live"), stat[1]);

    Path out = dir.resolve("out.bin");
    String[] get = fs("ecGet", "-d", "1", "fs/obj", out.toString());
    assertEquals("0", get[0], get[2]);
    assertArrayEquals(data, Files.readAllBytes(out));

    assertTrue(stat[1].contains("sha256: " + BaseEncoding.base16().lowerCase().encode(
        MessageDigest.getInstance("SHA-256").digest(data)) + "  fs/obj"), stat[1]);
    Path into = Files.createDirectory(dir.resolve("into"));
    assertEquals("0", fs("ecGet", "fs/obj", into.toString())[0], "a directory gets DIR/obj");
    assertArrayEquals(data, Files.readAllBytes(into.resolve("obj")));
    assertEquals("0", fs("ecGet", "fs/obj", "/dev/null")[0]);
    assertFalse(Files.isRegularFile(Path.of("/dev/null")), "/dev/null is still a device");

    assertEquals("0", fs("ecRm", "fs/obj")[0]);
    String[] gone = fs("ecStat", "fs/obj");
    assertNotEquals("0", gone[0]);
    assertTrue(gone[1].contains("no object 'fs/obj'"), "the error names the key: " + gone[1]);
  }

  @Test
  void badInputIsRefusedWithUsageAndLeavesNothingBehind() throws Exception {
    String[] noFile = fs("ecPut", dir.resolve("missing.bin").toString(), "fs/x");
    assertNotEquals("0", noFile[0]);
    assertTrue(noFile[1].contains("missing.bin"), noFile[1]);

    Path in = Files.write(dir.resolve("small.bin"), new byte[] {1, 2, 3});
    String[] badScheme = fs("ecPut", "-s", "raid5", in.toString(), "fs/x");
    assertNotEquals("0", badScheme[0]);
    assertTrue(badScheme[1].contains("rs-K-R"), "says what schemes exist: " + badScheme[1]);

    String[] tooWide = fs("ecPut", "-s", "rs-4-2", in.toString(), "fs/x");
    assertNotEquals("0", tooWide[0], "6 splits on 4 workers must be refused");
    assertTrue(tooWide[1].contains("worker"), tooWide[1]);

    String[] oldOrder = fs("ecPut", "fs/x", in.toString());
    assertNotEquals("0", oldOrder[0]);
    assertTrue(oldOrder[1].contains("ecPut " + in + " fs/x"), "shows the order: " + oldOrder[1]);
    String[] directory = fs("ecPut", dir.toString(), "fs/x");
    assertTrue(directory[1].contains("Is a directory: " + dir), directory[1]);

    Path target = dir.resolve("never.bin");
    String[] missingKey = fs("ecGet", "fs/nothing", target.toString());
    assertNotEquals("0", missingKey[0]);
    assertFalse(Files.exists(target), "a failed get leaves no file");
    try (var left = Files.list(dir)) {
      assertTrue(left.noneMatch(p -> p.getFileName().toString().endsWith(".part")),
          "nor a partial one");
    }
  }
}
