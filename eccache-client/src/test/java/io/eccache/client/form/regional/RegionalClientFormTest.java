package io.eccache.client.form.regional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.grpc.FileInfo;
import io.eccache.client.form.ClientForms;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.Split;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The order a regional object's splits are read in, and which objects and tasks are its. */
class RegionalClientFormTest {
  private final RegionalClientForm form = new RegionalClientForm();

  private static Split split(int index, boolean live, long latencyMicros, boolean readable) {
    Split.Builder s = Split.newBuilder().setIndex(index).setLive(live)
        .setRegionLatencyMicros(latencyMicros);
    if (readable) {
      s.setStatus(FileInfo.newBuilder().setPath("/r/" + index));
    }
    return s.build();
  }

  @Test
  void cachedSplitsComeFirstThenTheNearestRegions() {
    LookupResponse lookup = LookupResponse.newBuilder()
        .setLayout(Layout.newBuilder().addSplitPaths("/r/0"))
        .addSplits(split(0, false, 90_000, true))
        .addSplits(split(1, true, 90_000, true))
        .addSplits(split(2, false, 10_000, true))
        .addSplits(split(3, false, 30_000, true))
        .addSplits(split(4, true, 30_000, true))
        .addSplits(split(5, false, 10_000, true))
        .addSplits(split(6, false, 1, false)) // lost from its region: not read
        .build();
    for (int seed = 0; seed < 20; seed++) {
      List<Integer> order = new ArrayList<>();
      form.readOrder().orElseThrow().order(lookup, 3, new Random(seed))
          .forEach(s -> order.add(s.getIndex()));
      assertEquals(Set.of(1, 4), Set.copyOf(order.subList(0, 2)), "the cached ones, any order");
      assertEquals(List.of(2, 5, 3, 0), order.subList(2, 6), "nearest first, ties by index");
      assertEquals(6, order.size());
    }
  }

  @Test
  void itHoldsTheObjectsWithSplitsInRegionsAndTheRegionalCachesTasks() {
    assertTrue(form.holds(Layout.newBuilder().addSplitPaths("/eccache-regions/near/x").build()));
    assertFalse(form.holds(Layout.newBuilder().setDirectory("/.eccache/objects/x/w").build()));
    assertEquals(Set.of(MaintenanceTask.Kind.CACHE_SPLITS, MaintenanceTask.Kind.UNCACHE_SPLITS),
        form.maintenance().keySet());
    assertTrue(ClientForms.REGISTERED.step(MaintenanceTask.Kind.CACHE_SPLITS).isPresent());
    assertFalse(ClientForms.REGISTERED.step(MaintenanceTask.Kind.REPAIR).isPresent(),
        "striped objects' tasks are the client's own");
  }
}
