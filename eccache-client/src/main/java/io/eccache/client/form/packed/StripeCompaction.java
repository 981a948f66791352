package io.eccache.client.form.packed;

import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.UnavailableException;
import io.eccache.client.form.Maintainer;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.DropStripeRequest;
import io.eccache.common.proto.LogParity;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PackedSlot;
import io.eccache.common.proto.Stripe;
import java.io.IOException;

/**
 * A maintainer's COMPACT_STRIPE and DROP_STRIPE steps. A compaction reads each live value of a
 * sparse stripe (from its slot, as a GET would) and writes it anew as its key's next version,
 * committed only if the key still holds the slot's version: the value then waits to be packed
 * into a new stripe, and its old slot is dead. A drop has the stripe's log nodes forget it; the
 * coordinator then removes its record and retires its unit files.
 */
final class StripeCompaction {
  private static final PackedValueReader READER = new PackedValueReader();

  private StripeCompaction() {}

  static long compact(MaintenanceTask task, Maintainer maintainer,
      ApplyChangeRequest.Builder report) throws IOException {
    long moved = 0;
    for (PackedSlot slot : task.getCompaction().getLiveList()) {
      LookupResponse lookup;
      try {
        lookup = maintainer.lookup(slot.getKey());
      } catch (NotFoundException deleted) {
        continue;
      }
      if (!lookup.getLayout().getWriteId().equals(slot.getWriteId())
          || !lookup.hasStripe()) {
        continue; // written or moved since the plan: its slot is dead already
      }
      byte[] value = READER.read(lookup, maintainer);
      maintainer.acquireBandwidth(value.length);
      if (maintainer.rewrite(slot.getKey(), value, slot.getWriteId())) {
        moved += value.length;
      }
    }
    return moved;
  }

  static long drop(MaintenanceTask task, Maintainer maintainer,
      ApplyChangeRequest.Builder report) throws IOException {
    Stripe stripe = task.getCompaction().getStripe();
    for (LogParity parity : stripe.getLogParitiesList()) {
      try {
        maintainer.logNodes().dropStripe(parity.getLogNode(), DropStripeRequest.newBuilder()
            .setLog(StripeCode.log(stripe, parity.getRow()))
            .setStripe(stripe.getId()).build());
      } catch (UnavailableException gone) {
        // A node lost or restarted holds nothing of the stripe that anyone will ask for (stripes
        // name a node's boot); one only unreachable now keeps the stripe's bytes on its disk.
      }
    }
    return 0;
  }
}
