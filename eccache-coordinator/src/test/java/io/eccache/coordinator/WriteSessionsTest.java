package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.AbortedException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.wire.FileInfo;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.Split;
import io.eccache.coordinator.form.NamespacePort;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The write protocol's rules over an in-memory namespace: what an allocation creates and refuses,
 * that a commit switches a key in one step and only when every split is whole, that a failed or
 * abandoned PUT leaves the previous version, who may commit, and that replaced and deleted
 * versions are retired, not removed.
 */
class WriteSessionsTest {
  private RulesFixture rules;

  @BeforeEach
  void setUp() throws Exception {
    rules = new RulesFixture(6);
    rules.ns.createDirectory("/alice", NamespacePort.NewDirectory.ensured().mode((short) 0755)
        .ownedBy("alice", "alice"));
  }

  @AfterEach
  void tearDown() {
    rules.close();
  }

  @Test
  void anAllocationPlacesEverySplitOnADistinctLiveWorkerInPrivateFiles() throws Exception {
    AllocateResponse write = rules.allocate("alice", "alice/a.bin", 10_000);
    Layout layout = write.getLayout();
    assertEquals(5, write.getSplitsCount(), "RS(3, 2), the default code");
    Set<String> hosts = new HashSet<>();
    for (Split split : write.getSplitsList()) {
      hosts.add(split.getWorker().getHost());
      FileInfo file = rules.ns.status(split.getPath());
      assertEquals("alice", file.getOwner(), "the writer completes its own files");
      assertEquals(0600, file.getMode());
      assertFalse(file.isCompleted());
    }
    assertEquals(5, hosts.size(), "distinct workers");
    FileInfo dir = rules.ns.status(layout.getDirectory());
    assertEquals(0700, dir.getMode(), "no one but its writer reaches the splits");
    assertTrue(rules.writes.isPending(layout.getWriteId()));
    assertNull(rules.committed("alice/a.bin"), "nothing visible before the commit");
    assertEquals(5, rules.ns.calls("createFile"));
  }

  @Test
  void aSchemeAskedForThatCannotBePlacedChangesNothing() throws Exception {
    try (RulesFixture few = new RulesFixture(4)) {
      FailedPreconditionException e = assertThrows(FailedPreconditionException.class,
          () -> few.writes.allocate(Caller.named("root"), AllocateRequest.newBuilder()
              .setKey("big.bin").setObjectSize(10_000)
              .setScheme(SchemeProtos.toProto(RedundancyScheme.erasureCoded(3, 2))).build()));
      assertTrue(e.getMessage().contains("only 4 are live"), e.getMessage());
      assertEquals(List.of(), few.ns.pathsUnder(few.paths.objectsDirectory()));
      assertEquals(0, few.ns.calls("createFile"));
    }
  }

  @Test
  void theCoordinatorsOwnChoiceKeepsWhatFitsWhenWorkersAreShort() throws Exception {
    try (RulesFixture few = new RulesFixture(4)) {
      Layout layout = few.allocate("root", "big.bin", 10_000).getLayout();
      assertEquals(RedundancyScheme.erasureCoded(3, 1), SchemeProtos.of(layout),
          "one parity fewer than RS(3, 2); re-tuning restores it");
    }
  }

  @Test
  void aUserWhoMayNotWriteTheKeyGetsNoAllocation() throws Exception {
    rules.ns.setMode("/alice", (short) 0755, "alice");
    assertThrows(PermissionDeniedException.class,
        () -> rules.allocate("bob", "alice/a.bin", 10_000));
    assertEquals(0, rules.ns.calls("createFile"));
  }

  @Test
  void aCommitSwitchesTheKeyOnlyWhenEverySplitIsWhole() throws Exception {
    AllocateResponse write = rules.allocate("alice", "alice/a.bin", 10_000);
    Split last = write.getSplits(4);
    for (Split split : write.getSplitsList().subList(0, 4)) {
      rules.ns.write(split.getPath(), write.getLayout().getSplitSize(), null);
    }
    FailedPreconditionException e = assertThrows(FailedPreconditionException.class,
        () -> rules.writes.commit(Caller.named("alice"), rules.commitOf(write).build()));
    assertTrue(e.getMessage().contains(last.getPath()), e.getMessage());
    assertNull(rules.committed("alice/a.bin"));
    rules.ns.write(last.getPath(), write.getLayout().getSplitSize(), null);
    rules.writes.commit(Caller.named("alice"), rules.commitOf(write).build());
    Layout committed = rules.committed("alice/a.bin");
    assertEquals(write.getLayout().getWriteId(), committed.getWriteId());
    assertEquals(10_000, committed.getObjectSize());
    assertFalse(rules.writes.isPending(write.getLayout().getWriteId()));
  }

  @Test
  void onlyTheWriterCommitsAndOnlyWithTheRightChecksums() throws Exception {
    AllocateResponse write = rules.allocate("alice", "alice/a.bin", 10_000);
    rules.writeSplits(write);
    assertThrows(PermissionDeniedException.class,
        () -> rules.writes.commit(Caller.named("bob"), rules.commitOf(write).build()));
    assertThrows(InvalidArgumentException.class, () -> rules.writes.commit(
        Caller.named("alice"), rules.commitOf(write).addCrc32C(1).build()));
    assertNull(rules.committed("alice/a.bin"));
    rules.writes.commit(Caller.named("alice"), rules.commitOf(write).build());
    NotFoundException again = assertThrows(NotFoundException.class,
        () -> rules.writes.commit(Caller.named("alice"), rules.commitOf(write).build()));
    assertTrue(again.getMessage().contains("committed already"), again.getMessage());
  }

  @Test
  void aReplacedVersionIsRetiredForItsReadersAndSweptAfterTheGrace() throws Exception {
    Layout first = rules.put("alice", "alice/a.bin", 10_000);
    Layout second = rules.put("alice", "alice/a.bin", 20_000);
    assertEquals(second.getWriteId(), rules.committed("alice/a.bin").getWriteId());
    assertFalse(rules.ns.exists(first.getDirectory()), "moved out of the key's directory");
    String retired = retiredDirectoryOf(first.getWriteId());
    assertEquals(5, rules.ns.list(retired, NamespacePort.Load.NEVER).size(),
        "its splits keep their blocks for readers that looked it up");
    rules.clock.advance(Duration.ofMillis(RulesFixture.GRACE_MS - 1));
    rules.sweep.heartbeat(Long.MAX_VALUE);
    assertTrue(rules.ns.exists(retired), "in its grace");
    rules.clock.advance(Duration.ofMillis(1));
    rules.sweep.heartbeat(Long.MAX_VALUE);
    assertFalse(rules.ns.exists(retired), "grace over");
    assertTrue(rules.ns.exists(second.getDirectory()), "the current version stays");
  }

  @Test
  void anAbandonedPutLeavesThePreviousVersionAndIsRemovedAfterTheTimeout() throws Exception {
    Layout first = rules.put("alice", "alice/a.bin", 10_000);
    AllocateResponse abandoned = rules.allocate("alice", "alice/a.bin", 20_000);
    rules.writeSplits(abandoned);
    assertEquals(first.getWriteId(), rules.committed("alice/a.bin").getWriteId());
    rules.clock.advance(Duration.ofMillis(RulesFixture.ALLOCATION_TIMEOUT_MS - 1));
    rules.sweep.heartbeat(Long.MAX_VALUE);
    assertTrue(rules.ns.exists(abandoned.getLayout().getDirectory()), "may still commit");
    rules.clock.advance(Duration.ofMillis(2));
    rules.sweep.heartbeat(Long.MAX_VALUE);
    assertFalse(rules.writes.isPending(abandoned.getLayout().getWriteId()));
    assertFalse(rules.ns.exists(abandoned.getLayout().getDirectory()));
    assertThrows(NotFoundException.class, () -> rules.writes.commit(Caller.named("alice"),
        rules.commitOf(abandoned).build()));
    assertEquals(first.getWriteId(), rules.committed("alice/a.bin").getWriteId());
    assertTrue(rules.ns.exists(first.getDirectory()));
  }

  @Test
  void aConditionalCommitLosesToAWriteSinceItBegan() throws Exception {
    Layout first = rules.put("alice", "alice/a.bin", 10_000);
    AllocateResponse recache = rules.allocate("alice", "alice/a.bin", 10_000);
    rules.writeSplits(recache);
    rules.put("alice", "alice/a.bin", 30_000);
    AbortedException e = assertThrows(AbortedException.class,
        () -> rules.writes.commit(Caller.named("alice"), rules.commitOf(recache)
            .setConditional(true).setExpectedWriteId(first.getWriteId()).build()));
    assertTrue(e.getMessage().contains("not re-cached"), e.getMessage());
    assertEquals(30_000, rules.committed("alice/a.bin").getObjectSize());
  }

  @Test
  void aDeleteRetiresTheVersionAndRemovesTheKey() throws Exception {
    Layout layout = rules.put("alice", "alice/a.bin", 10_000);
    assertTrue(rules.writes.delete(Caller.named("alice"), "alice/a.bin", true));
    assertNull(rules.committed("alice/a.bin"));
    assertFalse(rules.ns.exists(rules.paths.objectDirectory("alice/a.bin")));
    assertTrue(rules.ns.exists(retiredDirectoryOf(layout.getWriteId())));
    assertFalse(rules.writes.delete(Caller.named("alice"), "alice/a.bin", true));
  }

  @Test
  void aDeleteDuringAPutRemovesTheKeyAndTheWriteMayStillCommit() throws Exception {
    rules.put("alice", "alice/a.bin", 10_000);
    AllocateResponse writing = rules.allocate("alice", "alice/a.bin", 20_000);
    assertTrue(rules.writes.delete(Caller.named("alice"), "alice/a.bin", true));
    assertNull(rules.committed("alice/a.bin"), "deleted");
    assertTrue(rules.ns.exists(writing.getLayout().getDirectory()), "the PUT's files stay");
    rules.writeSplits(writing);
    rules.writes.commit(Caller.named("alice"), rules.commitOf(writing).build());
    assertEquals(20_000, rules.committed("alice/a.bin").getObjectSize(), "a new version");
  }

  @Test
  void aThroughCommitPublishesTheStagedCopyUnderTheKeysName() throws Exception {
    AllocateResponse write = rules.allocate("alice", "alice/a.bin", 10_000);
    rules.writeSplits(write);
    rules.ns.putInUnderStore(write.getStagingPath(), 10_000);
    rules.writes.commit(Caller.named("alice"),
        rules.commitOf(write).setPersisted(true).build());
    Layout committed = rules.committed("alice/a.bin");
    assertTrue(committed.getPersisted());
    String published = rules.ufsPaths.objectPath("alice/a.bin");
    assertEquals(published, committed.getUfsPath());
    assertTrue(rules.ns.inUnderStore(published));
    assertFalse(rules.ns.inUnderStore(write.getStagingPath()));
  }

  /**
   * A long key's THROUGH copy gets its hashed name, replacing the copy under its name from before
   * names were hashed; a delete removes both; on an under store that fails for names longer than
   * a file name (s3proxy), a delete of a long key still succeeds and a read-through commit
   * naming the old copy is accepted.
   */
  @Test
  void aLongKeysCopyIsPublishedUnderItsHashedNameAndReplacesItsOldOne() throws Exception {
    String key = "alice/" + "y".repeat(300);
    String published = rules.ufsPaths.objectPath(key);
    String legacy = rules.ufsPaths.legacyPath(key);
    assertTrue(published.length() <= 1 + 218 && !published.equals(legacy), published);
    rules.ns.putInUnderStore(legacy, 5); // published by this cluster before names were hashed
    rules.ns.status(legacy, NamespacePort.Load.ALWAYS);
    AllocateResponse write = rules.allocate("alice", key, 10_000);
    rules.writeSplits(write);
    rules.ns.putInUnderStore(write.getStagingPath(), 10_000);
    rules.writes.commit(Caller.named("alice"), rules.commitOf(write).setPersisted(true).build());
    assertEquals(published, rules.committed(key).getUfsPath());
    assertTrue(rules.ns.inUnderStore(published));
    assertFalse(rules.ns.inUnderStore(legacy), "S3 keeps one copy of the key");
    rules.ns.putInUnderStore(legacy, 5); // one Alluxio never saw: left by a publish, never read
    AllocateResponse again = rules.allocate("alice", key, 10_000);
    rules.writeSplits(again);
    rules.ns.putInUnderStore(again.getStagingPath(), 10_000);
    rules.writes.commit(Caller.named("alice"), rules.commitOf(again).setPersisted(true).build());
    assertTrue(rules.ns.inUnderStore(legacy));
    assertTrue(rules.writes.delete(Caller.named("alice"), key, false));
    assertFalse(rules.ns.inUnderStore(published));
    assertFalse(rules.ns.inUnderStore(legacy), "no old copy comes back after a delete");

    rules.ns.failNamesBeyondFileNames(true);
    String longer = "alice/" + "z".repeat(300) + "/" + "w".repeat(300); // plain, too long
    rules.put("alice", longer, 10_000);
    assertTrue(rules.writes.delete(Caller.named("alice"), longer, false));
    assertFalse(rules.writes.delete(Caller.named("alice"), longer, false));
    // An old copy Alluxio's namespace holds is no name the under store failed on: removed.
    String held = "alice/" + "v".repeat(300);
    rules.ns.putInUnderStore(rules.ufsPaths.legacyPath(held), 10_000);
    rules.ns.status(rules.ufsPaths.legacyPath(held), NamespacePort.Load.ALWAYS);
    AllocateResponse recache = rules.allocate("alice", held, 10_000);
    rules.writeSplits(recache);
    rules.writes.commit(Caller.named("alice"), rules.commitOf(recache)
        .setUfsPath(rules.ufsPaths.legacyPath(held)).build());
    assertEquals(rules.ufsPaths.legacyPath(held), rules.committed(held).getUfsPath());
    assertTrue(rules.writes.delete(Caller.named("alice"), held, false));
    assertFalse(rules.ns.inUnderStore(rules.ufsPaths.legacyPath(held)));
    // A commit naming a copy under none of the key's names is refused, as ever.
    assertThrows(InvalidArgumentException.class, () -> rules.writes.commit(
        Caller.named("alice"), rules.commitOf(rules.allocate("alice", "alice/c", 10_000))
            .setUfsPath("/alice/elsewhere").build()));
  }

  @Test
  void aCacheOnlyVersionRemovesTheKeysStaleUnderStoreCopy() throws Exception {
    String copy = rules.ufsPaths.objectPath("alice/a.bin");
    rules.ns.putInUnderStore(copy, 5);
    rules.put("alice", "alice/a.bin", 10_000);
    assertFalse(rules.ns.inUnderStore(copy), "an eviction must not bring the old bytes back");
  }

  @Test
  void aLayoutCarriesEveryCommitField() throws Exception {
    AllocateResponse write = rules.allocate("alice", "alice/a.bin", 10_000);
    rules.writeSplits(write);
    byte[] sha = new byte[32];
    sha[0] = 7;
    rules.writes.commit(Caller.named("alice"), rules.commitOf(write)
        .setSha256(com.google.protobuf.ByteString.copyFrom(sha)).build());
    Layout committed = rules.committed("alice/a.bin");
    assertNotNull(committed);
    assertArrayEquals(sha, committed.getSha256().toByteArray());
    assertEquals("alice", committed.getWriter());
  }

  private String retiredDirectoryOf(String writeId) throws Exception {
    for (FileInfo retired : rules.ns.list(rules.paths.retiredDirectory(),
        NamespacePort.Load.NEVER)) {
      if (retired.getName().endsWith("-" + writeId)) {
        return retired.getPath();
      }
    }
    throw new AssertionError("write " + writeId + " is not retired");
  }
}
