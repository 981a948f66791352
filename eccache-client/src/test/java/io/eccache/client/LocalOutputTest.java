package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local rules of a GET's target and a PUT's source, without a cluster (pure file handling): a
 * GET that fails after it began writing (an interrupted read, a CRC failure) leaves the target as
 * it was and no part file.
 */
class LocalOutputTest {
  @TempDir Path dir;

  private List<String> names() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void aFailureMidWriteLeavesTheOldFileAndNoPart() throws Exception {
    Path target = Files.write(dir.resolve("t.bin"), new byte[] {9});
    try (LocalOutput out = LocalOutput.open(target.toString(), "k")) {
      out.stream().write(new byte[1000]);
      assertEquals(List.of(".t.bin." + ProcessHandle.current().pid() + ".part", "t.bin"), names());
      // the read fails here: no commit
    }
    assertEquals(List.of("t.bin"), names());
    assertArrayEquals(new byte[] {9}, Files.readAllBytes(target));

    try (LocalOutput out = LocalOutput.open(target.toString(), "k")) {
      out.stream().write(new byte[] {1, 2});
      out.commit();
    }
    assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(target));
    assertEquals(List.of("t.bin"), names());
  }

  @Test
  void directoriesGetTheLastKeySegmentAndMissingOnesAreNamed() throws Exception {
    try (LocalOutput out = LocalOutput.open(dir + "/", "a/b/c.txt")) {
      assertEquals(dir.resolve("c.txt"), out.target());
    }
    LocalOutput.LocalFileException e = assertThrows(LocalOutput.LocalFileException.class,
        () -> LocalOutput.open(dir.resolve("none") + "/", "k"));
    assertEquals("No such file or directory: " + dir.resolve("none") + "/", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LocalOutput.open(dir.toString(), "a/"));
  }

  @Test
  void inputsAreCheckedAndNamed() throws Exception {
    LocalOutput.LocalFileException directory = assertThrows(LocalOutput.LocalFileException.class,
        () -> LocalInput.open(dir.toString()));
    assertTrue(directory.getMessage().startsWith("Is a directory: " + dir), directory.getMessage());
    LocalOutput.LocalFileException missing = assertThrows(LocalOutput.LocalFileException.class,
        () -> LocalInput.open(dir.resolve("x").toString()));
    assertEquals("No such file or directory: " + dir.resolve("x"), missing.getMessage());
    Path f = Files.write(dir.resolve("f"), new byte[5]);
    LocalInput in = LocalInput.open(f.toString());
    assertEquals(5, in.length());
    in.stream().close();
  }
}
