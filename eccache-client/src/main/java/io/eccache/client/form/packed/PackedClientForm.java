package io.eccache.client.form.packed;

import io.eccache.client.form.ClientForm;
import io.eccache.client.form.MaintenanceStep;
import io.eccache.client.form.RedundancyCheck;
import io.eccache.client.form.ValueReader;
import io.eccache.client.form.ValueUpdater;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import java.util.Map;
import java.util.Optional;

/**
 * Packed values (LogECMem) on the client's side: a packed value is read from its slot
 * ({@link PackedValueReader}), a PUT of the same size updates it where it is
 * ({@link PackedValueUpdater}), and maintainers seal stripes ({@link StripeSeal}), repair
 * them ({@link StripeRepair}), compact and drop them ({@link StripeCompaction}) and scrub them
 * ({@link StripeScrub}). A value still
 * waiting for its stripe is an ordinary replicated object to the client.
 */
public final class PackedClientForm implements ClientForm {
  private static final ValueReader READER = new PackedValueReader();
  private static final ValueUpdater UPDATER = new PackedValueUpdater();
  private static final RedundancyCheck SCRUB = new StripeScrub();

  @Override
  public boolean holds(Layout layout) {
    return layout.hasPacked() && layout.getPacked().getStripe() != 0;
  }

  @Override
  public Optional<ValueReader> valueReader() {
    return Optional.of(READER);
  }

  @Override
  public Optional<ValueUpdater> valueUpdater() {
    return Optional.of(UPDATER);
  }

  @Override
  public Optional<RedundancyCheck> redundancyCheck() {
    return Optional.of(SCRUB);
  }

  @Override
  public Map<MaintenanceTask.Kind, MaintenanceStep> maintenance() {
    return Map.of(MaintenanceTask.Kind.SEAL_STRIPE, StripeSeal::run,
        MaintenanceTask.Kind.REPAIR_STRIPE, StripeRepair::run,
        MaintenanceTask.Kind.COMPACT_STRIPE, StripeCompaction::compact,
        MaintenanceTask.Kind.DROP_STRIPE, StripeCompaction::drop);
  }
}
