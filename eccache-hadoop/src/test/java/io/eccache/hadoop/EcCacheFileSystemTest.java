package io.eccache.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestUsers;
import io.eccache.testkit.TestData;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hadoop's file system contract where it applies to an object store (the checks of Hadoop's
 * {@code AbstractContract*Test}s, written out: create, open, seek, positioned reads and EOF,
 * overwrite, delete, listStatus, mkdirs, rename, missing paths), and {@code hadoop fs} (Hadoop's
 * own {@link FsShell}) against a real cluster. The file system is found through its service file.
 */
class EcCacheFileSystemTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = HadoopTestCluster.fourWorkers();
  private FileSystem fs;
  private Path base;

  @BeforeEach
  void start() throws Exception {
    CLUSTER.cluster();
    Configuration conf = new Configuration();
    fs = FileSystem.newInstance(HadoopTestCluster.uri(), conf);
    base = new Path("/" + CLUSTER.key("d"));
  }

  @AfterEach
  void stop() throws IOException {
    fs.close();
  }

  /** {@code hadoop fs} cached its file systems: closed while the cluster runs, not at JVM exit. */
  @AfterAll
  static void closeCachedFileSystems() throws IOException {
    FileSystem.closeAll();
  }

  private static byte[] bytes(int n, long seed) {
    return TestData.randomBytes(n, seed);
  }

  private void write(Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(p, false)) {
      out.write(data);
    }
  }

  private byte[] read(Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  @Test
  void theServiceFileNamesTheFileSystem() {
    assertTrue(fs instanceof EcCacheFileSystem, fs.getClass().getName());
    assertEquals("eccache", fs.getScheme());
  }

  @Test
  void badSettingsAreRefusedAtInitialization() {
    for (String[] setting : new String[][] {{"fs.eccache.put.write.mode", "SOMETIMES"},
        {"fs.eccache.put.scheme", "rs-0-1"}, {"alluxio.master.hostnme", "x"}}) {
      Configuration conf = new Configuration();
      conf.set(setting[0], setting[1]);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> FileSystem.newInstance(HadoopTestCluster.uri(), conf), setting[0]);
      assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), setting[0]);
    }
  }

  @Test
  void theMasterComesFromAlluxiosConfigurationWithoutAnAuthority() throws Exception {
    try (FileSystem plain = FileSystem.newInstance(java.net.URI.create("eccache:///"),
        new Configuration())) {
      String key = CLUSTER.key("plain");
      try (FSDataOutputStream out = plain.create(new Path("eccache:///" + key))) {
        out.write(bytes(10, 9));
      }
      // The same object, through the file system that names the master.
      assertArrayEquals(bytes(10, 9), read(new Path("/" + key)));
      assertEquals("eccache:///", plain.getUri().toString());
    }
  }

  @Test
  void aRefusalIsHadoopsAccessControlExceptionNamingThePath() throws Exception {
    Path p = new Path(base, "private/x");
    write(p, bytes(100, 40));
    TestUsers.directory(CLUSTER.cluster().fileSystem(), base + "/private", null, 0700);
    Configuration asBob = new Configuration();
    asBob.set("alluxio.security.login.username", TestUsers.BOB);
    try (FileSystem bob = FileSystem.newInstance(HadoopTestCluster.uri(), asBob)) {
      for (org.junit.jupiter.api.function.Executable call : List.<
          org.junit.jupiter.api.function.Executable>of(() -> bob.open(p).close(),
              () -> bob.getFileStatus(p), () -> bob.delete(p, false))) {
        org.apache.hadoop.security.AccessControlException e = assertThrows(
            org.apache.hadoop.security.AccessControlException.class, call);
        assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("user bob"),
            e.getMessage());
      }
    }
    assertArrayEquals(bytes(100, 40), read(p), "the file is unharmed");
  }

  @Test
  void aFileOverwrittenByAnotherClientIsReadAsItsStatusSays() throws Exception {
    Path p = new Path(base, "overwritten");
    write(p, bytes(1000, 21));
    assertArrayEquals(bytes(1000, 21), read(p)); // would cache its layout, were the cache on
    try (FileSystem other = FileSystem.newInstance(HadoopTestCluster.uri(), new Configuration());
        FSDataOutputStream out = other.create(p, true)) {
      out.write(bytes(3000, 22));
    }
    // Length and bytes from one version: a reader seeking to a footer by length gets that footer.
    assertEquals(3000, fs.getFileStatus(p).getLen());
    try (FSDataInputStream in = fs.open(p)) {
      byte[] tail = new byte[8];
      in.readFully(2992, tail);
      assertArrayEquals(Arrays.copyOfRange(bytes(3000, 22), 2992, 3000), tail);
    }
    assertArrayEquals(bytes(3000, 22), read(p));
  }

  @Test
  void createOpenSeekAndPositionedReads() throws Exception {
    byte[] data = bytes(300_001, 1); // 3 stripes of RS(2,1) with 64 KB cells
    Path p = new Path(base, "f.bin");
    FSDataOutputStream out = fs.create(p, false);
    out.write(data, 0, 1000);
    out.write(data, 1000, data.length - 1000);
    assertFalse(fs.exists(p), "an object appears when its stream closes, not before");
    out.close();
    assertEquals(data.length, fs.getFileStatus(p).getLen());
    assertTrue(fs.getFileStatus(p).isFile());
    assertArrayEquals(data, read(p));
    try (FSDataInputStream in = fs.open(p)) {
      in.seek(200_000);
      assertEquals(200_000, in.getPos());
      byte[] b = new byte[500];
      in.readFully(b);
      assertArrayEquals(Arrays.copyOfRange(data, 200_000, 200_500), b);
      in.readFully(131_000, b); // across a stripe boundary; the position stays
      assertArrayEquals(Arrays.copyOfRange(data, 131_000, 131_500), b);
      assertEquals(200_500, in.getPos());
      assertEquals(data[200_500] & 0xff, in.read(), "the stream goes on where it was");
      in.seek(10);
      assertEquals(data[10] & 0xff, in.read());
      assertEquals(3, in.read(data.length - 3, b, 0, 10), "a positioned read stops at the end");
      assertEquals(-1, in.read(data.length, b, 0, 10));
      assertThrows(EOFException.class, () -> in.readFully(data.length - 5, new byte[10]));
      assertThrows(EOFException.class, () -> in.seek(-1));
      assertThrows(EOFException.class, () -> in.seek(data.length + 1));
      in.seek(data.length);
      assertEquals(-1, in.read());
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocateDirect(100);
      in.seek(5);
      assertEquals(100, in.read(buf));
      buf.flip();
      byte[] direct = new byte[100];
      buf.get(direct);
      assertArrayEquals(Arrays.copyOfRange(data, 5, 105), direct);
    }
    FSDataInputStream closed = fs.open(p);
    closed.close();
    assertThrows(IOException.class, () -> closed.seek(1));
  }

  @Test
  void emptyFilesAndMissingPaths() throws Exception {
    Path empty = new Path(base, "empty");
    write(empty, new byte[0]);
    assertEquals(0, fs.getFileStatus(empty).getLen());
    assertArrayEquals(new byte[0], read(empty));
    Path missing = new Path(base, "missing");
    assertThrows(FileNotFoundException.class, () -> fs.open(missing));
    assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(missing));
    assertThrows(FileNotFoundException.class, () -> fs.listStatus(missing));
    assertFalse(fs.exists(missing));
    assertThrows(FileNotFoundException.class, () -> fs.open(base), "a directory is not opened");
  }

  @Test
  void overwriteIsRefusedUnlessAsked() throws Exception {
    Path p = new Path(base, "o");
    write(p, bytes(10, 1));
    assertThrows(FileAlreadyExistsException.class, () -> fs.create(p, false));
    byte[] second = bytes(20, 2);
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(second);
    }
    assertArrayEquals(second, read(p));
    assertThrows(FileAlreadyExistsException.class, () -> fs.create(base, true),
        "a directory is not overwritten by a file");
    assertThrows(ParentNotDirectoryException.class, () -> fs.create(new Path(p, "child"), true));
    assertThrows(UnsupportedOperationException.class, () -> fs.append(p));
  }

  @Test
  void listingsShowOneLevel() throws Exception {
    write(new Path(base, "a"), bytes(5, 1));
    write(new Path(base, "b"), bytes(7, 2));
    write(new Path(base, "dir/c"), bytes(9, 3));
    write(new Path(base, "dir/d/e"), bytes(11, 4));
    assertTrue(fs.mkdirs(new Path(base, "empty")));
    assertTrue(fs.getFileStatus(new Path(base, "empty")).isDirectory());
    assertEquals(0, fs.listStatus(new Path(base, "empty")).length);
    Set<String> names = new TreeSet<>();
    for (FileStatus s : fs.listStatus(base)) {
      names.add(s.getPath().getName() + (s.isDirectory() ? "/" : "=" + s.getLen()));
      assertEquals(fs.getUri().getScheme(), s.getPath().toUri().getScheme());
    }
    assertEquals(Set.of("a=5", "b=7", "dir/", "empty/"), names);
    // Characters a URI string would misread stay part of the name.
    Path odd = new Path(base, "odd/x #1%20 y.csv");
    write(odd, bytes(3, 5));
    FileStatus[] listed = fs.listStatus(new Path(base, "odd"));
    assertEquals(1, listed.length);
    assertEquals(odd.getName(), listed[0].getPath().getName());
    assertArrayEquals(bytes(3, 5), read(listed[0].getPath()));
    assertTrue(fs.getFileStatus(new Path(base, "dir/d")).isDirectory());
    FileStatus[] file = fs.listStatus(new Path(base, "a"));
    assertEquals(1, file.length);
    assertTrue(file[0].isFile());
    assertTrue(fs.getFileStatus(new Path("/")).isDirectory());
    assertThrows(FileAlreadyExistsException.class, () -> fs.mkdirs(new Path(base, "a")));
    assertThrows(ParentNotDirectoryException.class, () -> fs.mkdirs(new Path(base, "a/x")));
  }

  @Test
  void deleteFilesAndDirectories() throws Exception {
    write(new Path(base, "dir/f"), bytes(5, 1));
    write(new Path(base, "dir/sub/g"), bytes(5, 2));
    write(new Path(base, "only/h"), bytes(5, 3));
    assertTrue(fs.delete(new Path(base, "only/h"), false));
    assertTrue(fs.getFileStatus(new Path(base, "only")).isDirectory(),
        "deleting a directory's last file leaves the directory");
    assertTrue(fs.delete(new Path(base, "only"), false), "an empty directory goes without -r");
    assertFalse(fs.exists(new Path(base, "only")));
    assertThrows(PathIsNotEmptyDirectoryException.class,
        () -> fs.delete(new Path(base, "dir"), false));
    assertTrue(fs.exists(new Path(base, "dir/f")), "a refused delete deletes nothing");
    assertTrue(fs.delete(new Path(base, "dir"), true));
    assertFalse(fs.exists(new Path(base, "dir")));
    assertFalse(fs.exists(new Path(base, "dir/sub/g")));
    assertFalse(fs.delete(new Path(base, "missing"), true));
  }

  @Test
  void renameFilesAndDirectories() throws Exception {
    byte[] data = bytes(200_000, 1);
    Path src = new Path(base, "src");
    write(src, data);
    Path dst = new Path(base, "dst");
    assertTrue(fs.rename(src, dst));
    assertFalse(fs.exists(src));
    assertArrayEquals(data, read(dst));
    // Into an existing directory: under its own name.
    fs.mkdirs(new Path(base, "into"));
    assertTrue(fs.rename(dst, new Path(base, "into")));
    assertArrayEquals(data, read(new Path(base, "into/dst")));
    // Never over an existing file; a missing source or parent is refused.
    write(new Path(base, "other"), bytes(3, 2));
    assertFalse(fs.rename(new Path(base, "into/dst"), new Path(base, "other")));
    assertArrayEquals(bytes(3, 2), read(new Path(base, "other")));
    assertFalse(fs.rename(new Path(base, "missing"), new Path(base, "x")));
    assertFalse(fs.rename(new Path(base, "other"), new Path(base, "no/such/parent")));
    // A directory, nested, as Spark's committer moves task output.
    write(new Path(base, "tree/a"), bytes(4, 3));
    write(new Path(base, "tree/sub/b"), bytes(6, 4));
    assertTrue(fs.rename(new Path(base, "tree"), new Path(base, "moved")));
    assertFalse(fs.exists(new Path(base, "tree")));
    assertArrayEquals(bytes(4, 3), read(new Path(base, "moved/a")));
    assertArrayEquals(bytes(6, 4), read(new Path(base, "moved/sub/b")));
    assertFalse(fs.rename(new Path(base, "moved"), new Path(base, "moved/sub/inside")));
  }

  @Test
  void hadoopFsPutLsCat(@TempDir java.nio.file.Path tmp) throws Exception {
    java.nio.file.Path local = tmp.resolve("hello.txt");
    Files.writeString(local, "hello, eccache\n");
    String dir = HadoopTestCluster.uri() + CLUSTER.key("shell");
    Configuration conf = new Configuration();
    assertEquals(0, ToolRunner.run(conf, new FsShell(), new String[] {"-mkdir", "-p", dir}));
    assertEquals(0, ToolRunner.run(conf, new FsShell(),
        new String[] {"-put", local.toString(), dir + "/hello.txt"}));
    String ls = shell(conf, "-ls", dir);
    assertTrue(ls.contains(dir + "/hello.txt") && ls.contains(" 15 "), ls);
    assertEquals("hello, eccache\n", shell(conf, "-cat", dir + "/hello.txt"));
    assertEquals(1, ToolRunner.run(conf, new FsShell(),
        new String[] {"-cat", dir + "/missing.txt"}), "a missing file fails");
  }

  private static String shell(Configuration conf, String... args) throws Exception {
    PrintStream was = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      assertEquals(0, ToolRunner.run(conf, new FsShell(), args), String.join(" ", args));
    } finally {
      System.setOut(was);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
