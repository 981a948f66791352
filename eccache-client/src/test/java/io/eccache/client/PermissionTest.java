package io.eccache.client;

import static io.eccache.testkit.TestUsers.ADMIN;
import static io.eccache.testkit.TestUsers.ALICE;
import static io.eccache.testkit.TestUsers.BOB;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.exception.AccessControlException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.SetAttributePOptions;
import alluxio.grpc.WritePType;
import alluxio.master.MasterClientContext;
import alluxio.security.authorization.Mode;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.ObjectKeys;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import io.eccache.testkit.TestUsers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Alluxio's users and permissions hold through eccache (docs/security.md), in the style of Alluxio's
 * own {@code PermissionCheckTest}: a fixed group mapping ({@link TestUsers}), a small tree of plain
 * files and keys with set owners and modes, each operation run by one client per user, and each
 * case asserting a typed refusal with nothing changed (the listing, the bytes, S3), or success for
 * the owner and the supergroup.
 *
 * <p>The tree, under this test's own directory {@code /T} (made by the superuser, 755):
 * {@code /T/alice} (alice, 700) holding alice's plain file {@code secret.txt} (600) and her keys;
 * {@code /T/report.csv} (alice, 600) directly in {@code /T}, where only the superuser may write; and
 * {@code /T/shared} (777), where anyone may write.
 */
class PermissionTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();

  private EmbeddedCluster cluster;
  private FileSystem root;
  private final List<AutoCloseable> opened = new ArrayList<>();
  /** This test's namespace: keys {@code T/...}, plain files under {@code /T}. */
  private String t;
  private byte[] secret;
  private byte[] report;

  @BeforeEach
  void tree() throws Exception {
    cluster = CLUSTER.cluster();
    root = cluster.fileSystem();
    t = CLUSTER.key("t");
    TestUsers.directory(root, "/" + t, null, 0755);
    TestUsers.directory(root, "/" + t + "/alice", ALICE, 0700);
    TestUsers.directory(root, "/" + t + "/shared", null, 0777);
    secret = "alice's secret".getBytes(StandardCharsets.UTF_8);
    report = "q3,12".getBytes(StandardCharsets.UTF_8);
    plainFile("/" + t + "/alice/secret.txt", secret, ALICE, 0600);
    plainFile("/" + t + "/report.csv", report, ALICE, 0600);
  }

  @AfterEach
  void closeClients() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
  }

  @Test
  void bobCannotReachAlicesKeysAndNothingChanges() throws Exception {
    EcCacheClient alice = client(ALICE);
    EcCacheClient bob = client(BOB);
    String key = t + "/alice/notes.bin";
    byte[] data = TestData.randomBytes(300_000, 1);
    alice.put(key, data);

    assertEquals(List.of(key), alice.list(t + "/alice/"));
    assertEquals(List.of(), bob.list(t + "/"), "bob's listing shows none of alice's keys");
    denied(() -> bob.stat(key));
    denied(() -> bob.get(key));
    denied(() -> bob.openStream(key));
    denied(() -> bob.put(key, TestData.randomBytes(1000, 2)));
    denied(() -> bob.delete(key));
    denied(() -> bob.evict(key));
    assertArrayEquals(data, alice.get(key), "alice's key is unchanged");
    assertEquals(List.of(key), alice.list(t + "/alice/"));
  }

  @Test
  void bobCannotRemoveOrReplaceAlicesPlainFiles() throws Exception {
    EcCacheClient bob = client(BOB);
    // In alice's 700 directory, and in /T, where bob may not write.
    denied(() -> bob.delete(t + "/alice/secret.txt"));
    denied(() -> bob.delete(t + "/report.csv"));
    denied(() -> bob.evict(t + "/report.csv"));
    denied(() -> bob.put(t + "/alice/secret.txt", TestData.randomBytes(500, 3)));
    denied(() -> bob.put(t + "/report.csv", TestData.randomBytes(500, 4),
        PutOptions.defaults().writeMode(WriteMode.THROUGH)));
    // The plain API refuses bob the same.
    try (FileSystem bobFs = TestUsers.fileSystem(BOB)) {
      assertThrows(AccessControlException.class,
          () -> bobFs.delete(new AlluxioURI("/" + t + "/report.csv")));
    }
    assertPlainFile("/" + t + "/alice/secret.txt", secret);
    assertPlainFile("/" + t + "/report.csv", report);
  }

  @Test
  void splitFilesAndEccacheDirectoriesArePrivate() throws Exception {
    EcCacheClient alice = client(ALICE);
    String key = t + "/alice/private.bin";
    alice.put(key, TestData.randomBytes(200_000, 5));
    LookupResponse lookup = coordinator(ADMIN).lookup(key, true);
    String split = lookup.getSplits(0).getPath();
    URIStatus status = root.getStatus(new AlluxioURI(split));
    assertEquals(ALICE, status.getOwner(), "a split file belongs to its writer");
    assertEquals(0600, status.getMode());
    String writeDir = lookup.getLayout().getDirectory();
    assertEquals(0700, root.getStatus(new AlluxioURI(writeDir)).getMode());
    assertEquals(ALICE, root.getStatus(new AlluxioURI(writeDir)).getOwner());
    URIStatus objectDir = root.getStatus(new AlluxioURI(writeDir).getParent());
    assertEquals(0711, objectDir.getMode());
    assertEquals(root.getStatus(new AlluxioURI("/.eccache")).getOwner(), objectDir.getOwner(),
        "an object's directory is the master's, as eccache's own are");
    try (FileSystem bobFs = TestUsers.fileSystem(BOB)) {
      assertThrows(AccessControlException.class,
          () -> {
            try (alluxio.client.file.FileInStream in = bobFs.openFile(new AlluxioURI(split))) {
              in.read();
            }
          });
      assertThrows(AccessControlException.class,
          () -> bobFs.listStatus(new AlluxioURI(writeDir).getParent()));
      assertThrows(AccessControlException.class,
          () -> bobFs.listStatus(new AlluxioURI("/.eccache/objects")));
      assertThrows(AccessControlException.class,
          () -> bobFs.listStatus(new AlluxioURI(lookup.getLayout().getDirectory())));
      assertThrows(AccessControlException.class,
          () -> bobFs.listStatus(new AlluxioURI("/.eccache-staging")));
    }
  }

  @Test
  void aWriteIsItsWritersAlone() throws Exception {
    EcCacheClient alice = client(ALICE);
    CoordinatorClient aliceRpc = coordinator(ALICE);
    CoordinatorClient bobRpc = coordinator(BOB);
    String key = t + "/shared/owned.bin";
    AllocateResponse allocation = aliceRpc.allocate(
        AllocateRequest.newBuilder().setKey(key).setObjectSize(1000).build());
    String writeId = allocation.getLayout().getWriteId();
    assertEquals(ALICE, allocation.getLayout().getWriter());
    denied(() -> bobRpc.commit(CommitRequest.newBuilder().setKey(key).setWriteId(writeId)
        .setObjectSize(1000).build()));
    denied(() -> bobRpc.placeSplit(key, writeId, List.of()));
    // A commit may only name one of the key's own under-store paths as its source.
    assertThrows(InvalidArgumentException.class, () -> aliceRpc.commit(CommitRequest
        .newBuilder().setKey(key).setWriteId(writeId).setObjectSize(1000)
        .setUfsPath("/" + t + "/report.csv").setUfsFileId(1).build()));

    String persisted = t + "/shared/async.bin";
    alice.put(persisted, TestData.randomBytes(10_000, 6));
    String version = alice.stat(persisted).version();
    denied(() -> bobRpc.markPersisted(persisted, version));
  }

  @Test
  void maintenanceIsForAdministratorsAndReadReportsOnlyCountReadableKeys() throws Exception {
    EcCacheClient alice = client(ALICE);
    String key = t + "/alice/popular.bin";
    alice.put(key, TestData.randomBytes(50_000, 7));
    CoordinatorClient bobRpc = coordinator(BOB);
    denied(() -> bobRpc.plan(10));
    denied(() -> bobRpc.applyChange(ApplyChangeRequest.newBuilder().setLease("x").build()));
    denied(bobRpc::stats);

    CoordinatorClient admin = coordinator(ADMIN);
    admin.plan(0);
    admin.stats();
    long reported = admin.stats().getReadsReported();
    bobRpc.reportReads(Map.of(key, 1_000_000L));
    assertEquals(reported, admin.stats().getReadsReported(),
        "bob's report of a key he may not read counts nothing");
    coordinator(ALICE).reportReads(Map.of(key, 1_000_000L));
    assertEquals(reported + 100_000, admin.stats().getReadsReported(),
        "alice's report of her own key counts, at most 100,000 reads of one key per report");
  }

  @Test
  void everyWriteModeWorksForAPlainUserInHerOwnDirectory() throws Exception {
    EcCacheClient alice = client(ALICE);
    for (WriteMode mode : WriteMode.values()) {
      String key = t + "/alice/mode-" + mode.name().toLowerCase();
      byte[] data = TestData.randomBytes(150_000, mode.ordinal() + 10);
      alice.put(key, data, PutOptions.defaults().writeMode(mode));
      assertArrayEquals(data, alice.get(key), mode + " PUT reads back");
      assertArrayEquals(data, client(ADMIN).get(key), "the supergroup reads it");
      byte[] again = TestData.randomBytes(150_000, mode.ordinal() + 20);
      alice.put(key, again, PutOptions.defaults().writeMode(mode));
      assertArrayEquals(again, alice.get(key), mode + " overwrite reads back");
      assertTrue(alice.delete(key));
      assertEquals(List.of(), alice.list(key));
    }
    // alice may remove her own plain file, as `alluxio fs rm` lets her.
    assertTrue(alice.delete(t + "/alice/secret.txt"));
    assertFalse(root.exists(new AlluxioURI("/" + t + "/alice/secret.txt")));
  }

  @Test
  void aSharedDirectoryIsSharedAndAnEscapedS3CopyIsItsWritersAlone() throws Exception {
    EcCacheClient alice = client(ALICE);
    EcCacheClient bob = client(BOB);
    String bobs = t + "/shared/bobs.bin";
    byte[] data = TestData.randomBytes(80_000, 30);
    bob.put(bobs, data);
    assertArrayEquals(data, alice.get(bobs), "a key in a 777 directory is readable by all");
    // A THROUGH copy: the key's permissions are still its directory's (777: bob reads it) ...
    String through = t + "/shared/through.bin";
    byte[] hers = TestData.randomBytes(60_000, 31);
    alice.put(through, hers, PutOptions.defaults().writeMode(WriteMode.THROUGH));
    assertArrayEquals(hers, bob.get(through));
    // ... and its S3 copy, under an escaped name that is not the key's plain path, is alice's
    // alone: through the plain API no one reads it but her.
    URIStatus copy = root.getStatus(new AlluxioURI("/" + ObjectKeys.encode(through)));
    assertEquals(ALICE, copy.getOwner());
    assertEquals(0600, copy.getMode());
    // And the supergroup may remove what is not its own.
    assertTrue(client(ADMIN).delete(bobs));
    assertThrows(alluxio.exception.status.NotFoundException.class, () -> bob.stat(bobs));
  }

  @Test
  void aReaderWhoMayNotWriteReadsThroughWithoutCachingIt() throws Exception {
    String key = t + "/shared/plain.csv";
    byte[] data = TestData.randomBytes(40_000, 50);
    plainFile("/" + key, data, ALICE, 0644);
    CoordinatorClient admin = coordinator(ADMIN);
    assertArrayEquals(data, client(BOB).get(key), "bob may read alice's 644 file through");
    assertThrows(alluxio.exception.status.NotFoundException.class,
        () -> admin.lookup(key, true), "and caching it again would be writing it: not his");
    assertArrayEquals(data, client(ALICE).get(key));
    alluxio.util.CommonUtils.waitFor("alice's read to cache her file again", () -> {
      try {
        return admin.lookup(key, true).getLayout().getWriter().equals(ALICE);
      } catch (alluxio.exception.status.AlluxioStatusException notYet) {
        return false;
      }
    }, alluxio.util.WaitForOptions.defaults().setTimeoutMs(10_000));
  }

  @Test
  void aRefusalNamesTheUserTheKeyAndThePath() throws Exception {
    PermissionDeniedException e = assertThrows(PermissionDeniedException.class,
        () -> client(BOB).delete(t + "/report.csv"));
    assertTrue(e.getMessage().contains("user bob"), e.getMessage());
    assertTrue(e.getMessage().contains("'" + t + "/report.csv'"), e.getMessage());
    assertTrue(e.getMessage().contains("/" + t), e.getMessage());
  }

  @Test
  void theAuditLogNamesTheRealCaller() throws Exception {
    List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
    org.apache.logging.log4j.core.LoggerContext logging = (org.apache.logging.log4j.core.LoggerContext)
        org.apache.logging.log4j.LogManager.getContext(false);
    org.apache.logging.log4j.core.appender.AbstractAppender capture =
        new org.apache.logging.log4j.core.appender.AbstractAppender("audit-capture", null, null,
            true, org.apache.logging.log4j.core.config.Property.EMPTY_ARRAY) {
          @Override
          public void append(org.apache.logging.log4j.core.LogEvent event) {
            lines.add(event.getMessage().getFormattedMessage());
          }
        };
    capture.start();
    org.apache.logging.log4j.core.config.LoggerConfig audit =
        new org.apache.logging.log4j.core.config.LoggerConfig("AUDIT_LOG",
            org.apache.logging.log4j.Level.INFO, false);
    audit.addAppender(capture, org.apache.logging.log4j.Level.INFO, null);
    logging.getConfiguration().addLogger("AUDIT_LOG", audit);
    logging.updateLoggers();
    try {
      denied(() -> client(BOB).delete(t + "/report.csv"));
      String expected = "cmd=eccache.delete\tsrc=/" + t + "/report.csv";
      alluxio.util.CommonUtils.waitFor("bob's refused delete in the audit log",
          () -> lines.stream().anyMatch(l -> l.contains("ugi=bob") && l.contains(expected)),
          alluxio.util.WaitForOptions.defaults().setTimeoutMs(10_000));
      String line = lines.stream().filter(l -> l.contains("ugi=bob") && l.contains(expected))
          .findFirst().orElseThrow();
      assertTrue(line.contains("succeeded=false\tallowed=false"), line);
    } finally {
      logging.getConfiguration().removeLogger("AUDIT_LOG");
      logging.updateLoggers();
      capture.stop();
    }
  }

  private static void denied(org.junit.jupiter.api.function.Executable call) {
    assertThrows(PermissionDeniedException.class, call);
  }

  private EcCacheClient client(String user) {
    EcCacheClient c = EcCacheClient.create(TestUsers.as(user));
    opened.add(c);
    return c;
  }

  private CoordinatorClient coordinator(String user) {
    CoordinatorClient c = new CoordinatorClient(MasterClientContext.newBuilder(
        alluxio.ClientContext.create(TestUsers.as(user))).build());
    opened.add(c);
    return c;
  }

  private void plainFile(String path, byte[] data, String owner, int mode) throws Exception {
    try (FileOutStream out = root.createFile(new AlluxioURI(path),
        CreateFilePOptions.newBuilder().setWriteType(WritePType.CACHE_THROUGH).build())) {
      out.write(data);
    }
    root.setAttribute(new AlluxioURI(path), SetAttributePOptions.newBuilder().setOwner(owner)
        .setMode(new Mode((short) mode).toProto()).build());
  }

  /** The plain file is still there, whole, in Alluxio and in S3. */
  private void assertPlainFile(String path, byte[] data) throws Exception {
    assertTrue(root.exists(new AlluxioURI(path)), path + " is still in Alluxio");
    assertArrayEquals(data, Files.readAllBytes(cluster.s3File(path.substring(1))),
        path + " is still in S3");
  }
}
