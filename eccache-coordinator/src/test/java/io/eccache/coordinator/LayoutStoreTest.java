package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.NotFoundException;
import io.eccache.common.ObjectPaths;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a lookup and a listing see of the kept layouts, over an in-memory namespace: committed
 * objects only, every split with its file and where it lives now, a lost worker's splits not live.
 */
class LayoutStoreTest {
  private final RulesFixture rules = new RulesFixture(5);

  @AfterEach
  void tearDown() {
    rules.close();
  }

  @Test
  void aLookupGivesEverySplitsFileAndLiveWorker() throws Exception {
    Layout layout = rules.put("root", "k", 10_000);
    LookupResponse described = rules.layouts.describe("k").build();
    assertEquals(layout, described.getLayout());
    assertEquals(5, described.getSplitsCount());
    for (Split split : described.getSplitsList()) {
      assertEquals(ObjectPaths.splitPath(layout, split.getIndex()), split.getPath());
      assertTrue(split.getLive(), "every worker is live");
      assertEquals(layout.getSplitSize(), split.getStatus().getLength());
    }
  }

  @Test
  void aLostWorkersSplitIsNotLive() throws Exception {
    rules.put("root", "k", 10_000);
    String lost = rules.layouts.describe("k").getSplits(2).getWorker().getHost();
    rules.ns.loseWorker(lost);
    rules.layouts.workersChanged();
    List<Integer> live = new ArrayList<>();
    for (Split split : rules.layouts.describe("k").getSplitsList()) {
      if (split.getLive()) {
        live.add(split.getIndex());
      }
    }
    assertEquals(List.of(0, 1, 3, 4), live);
  }

  @Test
  void onlyCommittedObjectsAreListedOrFound() throws Exception {
    rules.put("root", "a/1", 10_000);
    rules.put("root", "b/1", 10_000);
    rules.allocate("root", "a/2", 10_000); // pending: not an object yet
    List<String> keys = new ArrayList<>();
    for (Layout l : rules.layouts.list("a/").getObjectsList()) {
      keys.add(l.getKey());
    }
    assertEquals(List.of("a/1"), keys);
    assertThrows(NotFoundException.class, () -> rules.layouts.describe("a/2"));
    assertNull(rules.committed("a/2"));
  }

  @Test
  void anUnreadableLayoutIsNoObject() throws Exception {
    rules.put("root", "k", 10_000);
    String dir = rules.paths.objectDirectory("k");
    rules.ns.putXattr(dir, ObjectPaths.LAYOUT_XATTR, new byte[] {1, 2, 3, 4});
    assertNull(rules.committed("k"), "a corrupt layout is not read as some object");
    assertFalse(rules.layouts.list("").getObjectsList().stream()
        .anyMatch(l -> l.getKey().equals("k")));
  }
}
