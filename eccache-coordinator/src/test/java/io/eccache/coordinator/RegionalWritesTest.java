package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.InvalidArgumentException;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.RegionMounts;
import io.eccache.common.SchemeProtos;
import io.eccache.common.UnderStorePaths;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.coordinator.form.NamespacePort;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The regional form (Agar) under the write protocol, over an in-memory namespace: splits dealt to
 * the regions in turn and written through by the writer, a worker shared when too few are live,
 * lookups that carry each split's region and latency, a sweep that removes replaced and abandoned
 * versions' files from the regions, and what a regional object refuses.
 */
class RegionalWritesTest {
  @Test
  void aWriteDealsItsSplitsToTheRegionsInTurnAndSharesAWorkerWhenFewAreLive() throws Exception {
    try (RulesFixture rules = new RulesFixture(2, true)) {
      AllocateResponse write = rules.allocate("root", "agar/a", 10_000);
      assertTrue(write.getWriteThrough());
      assertFalse(write.getSplitFilesCreated(), "the writer creates them in their regions");
      assertEquals("", write.getStagingPath(), "the regions are the store: nothing staged");
      assertEquals(RedundancyScheme.erasureCoded(2, 1), SchemeProtos.of(write.getLayout()));
      List<String> regions = List.of("near", "mid", "far");
      Set<String> hosts = new HashSet<>();
      for (Split split : write.getSplitsList()) {
        String region = regions.get(split.getIndex());
        assertEquals(region, split.getRegion());
        assertTrue(split.getPath().startsWith("/eccache-regions/" + region + "/agar~2Fa."),
            split.getPath());
        hosts.add(split.getWorker().getHost());
      }
      assertEquals(2, hosts.size(), "three splits through two workers");
      assertEquals(0, rules.ns.calls("createFile"), "no split file made by the master");
    }
  }

  @Test
  void aRegionalObjectKeepsItsCodeAndCannotBeEvictedAlone() throws Exception {
    try (RulesFixture rules = new RulesFixture(4, true)) {
      InvalidArgumentException other = assertThrows(InvalidArgumentException.class,
          () -> rules.writes.allocate(Caller.named("root"), AllocateRequest.newBuilder()
              .setKey("agar/a").setObjectSize(10)
              .setScheme(SchemeProtos.toProto(RedundancyScheme.replicated(3))).build()));
      assertTrue(other.getMessage().contains("regional namespace"), other.getMessage());
      rules.put("root", "agar/a", 10_000);
      InvalidArgumentException evict = assertThrows(InvalidArgumentException.class,
          () -> rules.writes.delete(Caller.named("root"), "agar/a", true));
      assertTrue(evict.getMessage().contains("cannot be evicted alone"), evict.getMessage());
      assertTrue(rules.writes.delete(Caller.named("root"), "agar/a", false));
      assertEquals(null, rules.committed("agar/a"));
    }
  }

  @Test
  void aLookupGivesEachSplitsRegionAndItsLatency() throws Exception {
    try (RulesFixture rules = new RulesFixture(4, true)) {
      Layout layout = rules.put("root", "agar/a", 10_000);
      rules.ns.delete(layout.getSplitPaths(1), NamespacePort.Removal.EVERYWHERE);
      LookupResponse described = rules.layouts.describe("agar/a").build();
      assertEquals(List.of(10_000L, 30_000L, 90_000L), List.of(
          described.getSplits(0).getRegionLatencyMicros(),
          described.getSplits(1).getRegionLatencyMicros(),
          described.getSplits(2).getRegionLatencyMicros()));
      assertTrue(described.getSplits(0).hasStatus());
      assertFalse(described.getSplits(1).hasStatus(), "removed behind eccache's back");
      assertTrue(described.getSplits(2).getLive());
    }
  }

  @Test
  void theSweepRemovesReplacedAndAbandonedVersionsFromTheRegions() throws Exception {
    try (RulesFixture rules = new RulesFixture(4, true)) {
      Layout first = rules.put("root", "agar/a", 10_000);
      sweep(rules);
      assertTrue(rules.ns.exists(first.getSplitPaths(0)), "the current version");
      Layout second = rules.put("root", "agar/a", 20_000);
      AllocateResponse abandoned = rules.allocate("root", "agar/a", 30_000);
      rules.writeSplits(abandoned);
      rules.clock.advance(Duration.ofMillis(RulesFixture.ALLOCATION_TIMEOUT_MS + 1));
      rules.writes.expireAbandoned();
      AllocateResponse pending = rules.allocate("root", "agar/b", 30_000);
      rules.writeSplits(pending);
      rules.clock.advance(Duration.ofMillis(RulesFixture.ALLOCATION_TIMEOUT_MS));
      sweep(rules); // no expiry first: b is still pending, however old
      for (int i = 0; i < 3; i++) {
        assertFalse(rules.ns.exists(first.getSplitPaths(i)), "replaced, grace over");
        assertFalse(rules.ns.exists(abandoned.getSplits(i).getPath()), "abandoned");
        assertTrue(rules.ns.exists(second.getSplitPaths(i)), "the current version");
        assertTrue(rules.ns.exists(pending.getSplits(i).getPath()), "pending");
      }
    }
  }

  /**
   * A long key's split files are named by its hash, to fit S3 servers that keep objects as files;
   * the sweep, which cannot take such a name back to its key, tells their writes by id.
   */
  @Test
  void aLongKeysSplitFilesFitAFileNameAndAreSweptByTheirWrite() throws Exception {
    try (RulesFixture rules = new RulesFixture(4, true)) {
      String key = "agar/" + "long key/".repeat(40);
      Layout first = rules.put("root", key, 10_000);
      for (String path : first.getSplitPathsList()) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        assertTrue(name.length() <= UnderStorePaths.MAX_OBJECT_NAME_BYTES, name);
        assertEquals(first.getWriteId(), RegionMounts.parseChunkName(name).writeId);
      }
      rules.put("root", "agar/short", 10_000); // a key whose files name it, swept beside
      Layout second = rules.put("root", key, 20_000);
      AllocateResponse pending = rules.allocate("root", key, 30_000);
      rules.writeSplits(pending);
      rules.clock.advance(Duration.ofMillis(RulesFixture.GRACE_MS + 1));
      sweep(rules); // the retired version's grace is over: its directory goes first
      rules.clock.advance(Duration.ofMillis(RulesFixture.ALLOCATION_TIMEOUT_MS));
      sweep(rules);
      for (int i = 0; i < 3; i++) {
        assertFalse(rules.ns.exists(first.getSplitPaths(i)), "replaced, grace over");
        assertTrue(rules.ns.exists(second.getSplitPaths(i)), "the current version");
        assertTrue(rules.ns.exists(pending.getSplits(i).getPath()), "pending");
        assertTrue(rules.ns.exists(rules.committed("agar/short").getSplitPaths(i)));
      }
      assertTrue(rules.writes.delete(Caller.named("root"), key, false));
      rules.clock.advance(Duration.ofMillis(RulesFixture.GRACE_MS + 1));
      sweep(rules);
      sweep(rules);
      for (int i = 0; i < 3; i++) {
        assertFalse(rules.ns.exists(second.getSplitPaths(i)), "deleted, grace over");
      }
    }
  }

  private static void sweep(RulesFixture rules) throws Exception {
    rules.sweeper.sweep(rules.clock.millis(), rules.writes::isPending, LayoutStore::parse);
  }
}
