package io.eccache.coordinator.form.packed;

import alluxio.exception.AlluxioException;
import alluxio.heartbeat.HeartbeatExecutor;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PackedCompaction;
import io.eccache.common.proto.PackedSlot;
import io.eccache.common.proto.Stripe;
import io.eccache.coordinator.form.FormContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reclaims the room of dead slots (values replaced by a new version or deleted; under full-stripe
 * updates, every update leaves one): a stripe whose live values fill at most
 * {@link #COMPACT_AT_MOST} of its data units is compacted (COMPACT_STRIPE: a maintainer writes
 * each live value anew as its key's next version, if the key still holds it, and the value waits
 * to be packed into a new stripe, as any new value); a stripe with no live value is dropped
 * (DROP_STRIPE: a maintainer has its log nodes forget it, then its record is removed and its
 * unit files retired, so readers holding an older lookup finish within the grace). A value is
 * never out of the cache meanwhile: it leaves its slot only when its next version commits.
 */
final class StripeCompactions implements HeartbeatExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(StripeCompactions.class);
  /** A stripe whose live values fill at most this share of its data units is compacted. */
  static final double COMPACT_AT_MOST = 0.5;

  private final FormContext context;
  private final StripeStore stripes;
  /** Every this many heartbeats, all stripes are looked at (marks are soft state). */
  private static final int FULL_SCAN_EVERY = 20;

  /** stripe id -> the version its submitted compaction or drop saw. */
  private final Map<Long, Long> submitted = new ConcurrentHashMap<>();
  /** Stripes a slot of which died since they were last looked at. */
  private final Set<Long> marked = ConcurrentHashMap.newKeySet();
  private int heartbeats;

  StripeCompactions(FormContext context, StripeStore stripes) {
    this.context = context;
    this.stripes = stripes;
  }

  /** A slot of stripe {@code id} died (its value was replaced or deleted). */
  void mark(long id) {
    marked.add(id);
  }

  /**
   * Looks at the stripes marked since the last heartbeat, and at every stripe on the first
   * heartbeat and every {@link #FULL_SCAN_EVERY}th (after a master restart no mark survives): a
   * scan reads the layout of every value in the stripes it looks at.
   */
  @Override
  public void heartbeat(long timeLimitMs) {
    try {
      if (heartbeats++ % FULL_SCAN_EVERY == 0) {
        marked.clear();
        scan();
      } else {
        for (Long id : List.copyOf(marked)) {
          if (submitted.containsKey(id)) {
            continue; // looked at once its task is done (its own rewrites mark it)
          }
          marked.remove(id);
          Stripe stripe = stripes.read(id);
          if (stripe != null) {
            plan(stripe);
          }
        }
      }
    } catch (IOException | AlluxioException | RuntimeException e) {
      LOG.warn("eccache: the scan for sparse packed stripes failed: {}", e.toString());
    }
  }

  /**
   * Submits a compaction or drop for every stripe that needs one and has none under way (all
   * stripes looked at); how many it submitted.
   */
  int scan() throws IOException, AlluxioException {
    int planned = 0;
    for (long id : stripes.ids()) {
      Stripe stripe = submitted.containsKey(id) ? null : stripes.read(id);
      if (stripe != null && plan(stripe)) {
        planned++;
      }
    }
    return planned;
  }

  private boolean plan(Stripe stripe) throws IOException, AlluxioException {
    List<PackedSlot> live = new ArrayList<>();
    long liveBytes = 0;
    for (int u = 0; u < stripe.getDataUnits(); u++) {
      for (PackedSlot slot : stripe.getUnits(u).getSlotsList()) {
        Layout current = context.layoutOf(slot.getKey());
        if (current != null && current.getWriteId().equals(slot.getWriteId())) {
          live.add(slot);
          liveBytes += slot.getLength();
        }
      }
    }
    MaintenanceTask.Kind kind;
    if (live.isEmpty()) {
      kind = MaintenanceTask.Kind.DROP_STRIPE;
    } else if (liveBytes <= COMPACT_AT_MOST * stripe.getDataUnits() * stripe.getUnitSize()) {
      kind = MaintenanceTask.Kind.COMPACT_STRIPE;
    } else {
      return false;
    }
    submitted.put(stripe.getId(), stripe.getVersion());
    context.submitOnce(MaintenanceTask.newBuilder().setKind(kind)
        .setKey("stripe:" + stripe.getId() + ":compaction")
        .setCompaction(PackedCompaction.newBuilder().setStripe(stripe).addAllLive(live)).build());
    return true;
  }

  /**
   * A compaction or drop was reported. A compaction changes no stripe (each value it wrote anew
   * committed as its key's PUT would): the next scan finds the stripe empty and drops it. A drop
   * removes the stripe's record if it is still at the version planned and no update holds it,
   * then retires its unit files.
   *
   * @return whether the report was taken
   */
  boolean applied(MaintenanceTask task, ApplyChangeRequest request)
      throws IOException, AlluxioException {
    Stripe stripe = task.getCompaction().getStripe();
    try {
      if (request.getFailed() || task.getKind() != MaintenanceTask.Kind.DROP_STRIPE) {
        return !request.getFailed();
      }
      if (!stripes.remove(stripe.getId(), stripe.getVersion())) {
        return false; // an update came in between: the next scan looks again
      }
      // Its unit files as the last version named them, and any others in its directory (a
      // previous version's, retired already, go with it): readers finish within the grace.
      context.retire(stripes.directory(stripe.getId()), "stripe-" + stripe.getId()
          + "-dropped");
      LOG.debug("eccache: dropped empty stripe {} of {}", stripe.getId(),
          stripe.getNamespace());
      return true;
    } finally {
      submitted.remove(stripe.getId());
    }
  }

  @Override
  public void close() {}

  /** A task handed out was not reported in time: the next scan may plan the stripe again. */
  void forget(long id) {
    submitted.remove(id);
  }
}
