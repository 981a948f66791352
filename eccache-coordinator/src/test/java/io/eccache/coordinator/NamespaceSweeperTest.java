package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.coordinator.form.NamespacePort;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the sweep may collect, over an in-memory namespace: orphaned writes and empty object
 * directories once older than the allocation timeout, abandoned staged copies; never a pending
 * write, a committed version or a retired one in its grace, nor what is not eccache's.
 */
class NamespaceSweeperTest {
  private final RulesFixture rules = new RulesFixture(5);

  @AfterEach
  void tearDown() {
    rules.close();
  }

  /** A write directory no allocation knows (its master restarted), with one split file. */
  private String orphan(String key, String writeId) throws Exception {
    String dir = rules.paths.writeDirectory(key, writeId);
    rules.ns.createFile(dir + "/d00", new NamespacePort.NewFile(1024, (short) 0600, null, null));
    return dir;
  }

  /** One sweep, {@code ms} after the last, with no allocation expired first. */
  private void sweepAfter(long ms) throws Exception {
    rules.clock.advance(Duration.ofMillis(ms));
    rules.sweeper.sweep(rules.clock.millis(), rules.writes::isPending, LayoutStore::parse);
  }

  @Test
  void anOrphanedWriteGoesOnceOlderThanTheAllocationTimeout() throws Exception {
    Layout committed = rules.put("root", "k", 10_000);
    String orphan = orphan("k", "0f0f0f0f-0000-0000-0000-000000000000");
    sweepAfter(RulesFixture.ALLOCATION_TIMEOUT_MS - 1);
    assertTrue(rules.ns.exists(orphan), "young: may be a write whose allocation is in flight");
    sweepAfter(1);
    assertFalse(rules.ns.exists(orphan));
    assertTrue(rules.ns.exists(committed.getDirectory()), "the committed version stays");
    assertEquals(committed.getWriteId(), rules.committed("k").getWriteId());
  }

  @Test
  void aPendingWriteStaysHoweverOld() throws Exception {
    AllocateResponse pending = rules.allocate("root", "k", 10_000);
    sweepAfter(RulesFixture.ALLOCATION_TIMEOUT_MS * 2); // no expiry first: still pending
    assertTrue(rules.ns.exists(pending.getLayout().getDirectory()));
  }

  @Test
  void anObjectDirectoryWithoutLayoutOrWritesGoesWhenOld() throws Exception {
    String empty = rules.paths.objectDirectory("gone");
    rules.ns.createDirectory(empty, NamespacePort.NewDirectory.ensured());
    String withOrphan = rules.paths.objectDirectory("orphaned");
    orphan("orphaned", "1f1f1f1f-0000-0000-0000-000000000000");
    sweepAfter(RulesFixture.ALLOCATION_TIMEOUT_MS - 1);
    assertTrue(rules.ns.exists(empty), "young: a PUT may be about to write in it");
    sweepAfter(1);
    assertFalse(rules.ns.exists(empty));
    assertFalse(rules.ns.exists(withOrphan), "its orphan first, then itself, in one sweep");
  }

  @Test
  void whatIsNotAnObjectDirectoryIsLeftAlone() throws Exception {
    String foreign = rules.paths.objectsDirectory() + "/not~an~object"; // no key is named so
    rules.ns.createDirectory(foreign, NamespacePort.NewDirectory.ensured());
    sweepAfter(RulesFixture.ALLOCATION_TIMEOUT_MS * 2);
    assertTrue(rules.ns.exists(foreign));
  }

  @Test
  void anAbandonedStagedCopyGoesFromTheUnderStoreToo() throws Exception {
    AllocateResponse kept = rules.allocate("root", "k", 10_000);
    String abandoned = rules.ufsPaths.stagingPath("2f2f2f2f-0000-0000-0000-000000000000");
    rules.ns.putInUnderStore(abandoned, 10);
    rules.ns.putInUnderStore(kept.getStagingPath(), 10);
    sweepAfter(0);
    assertTrue(rules.ns.inUnderStore(abandoned), "loaded now, young");
    sweepAfter(RulesFixture.ALLOCATION_TIMEOUT_MS);
    assertFalse(rules.ns.inUnderStore(abandoned));
    assertTrue(rules.ns.inUnderStore(kept.getStagingPath()), "its write is pending");
  }
}
