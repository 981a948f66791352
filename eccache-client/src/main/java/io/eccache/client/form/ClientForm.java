package io.eccache.client.form;

import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import java.util.Map;
import java.util.Optional;

/**
 * One storage form, on the client's side: the order its splits are read in, and the maintenance
 * tasks only it has. The coordinator's {@code StorageForm} decides how an object of the form is
 * laid out; this is what a client does differently with it. Every object not held by a registered
 * form is a striped object, read and maintained by the client's own classes.
 *
 * <p>An SPI inside the client, public only so a form can live in its own package; not an API for
 * applications. Forms are registered once, in {@link ClientForms#REGISTERED}.
 */
public interface ClientForm {
  /** Whether {@code layout} is one of this form's objects. */
  boolean holds(Layout layout);

  /**
   * The order this form's splits are asked for, replacing the read choice's (how many at once
   * and when stay the read choice's); empty to keep the read choice's order.
   */
  default Optional<SplitOrder> readOrder() {
    return Optional.empty();
  }

  /**
   * How this form's objects are read whole when they are not read as striped objects (small
   * values kept in a form of their own); empty to read them as striped objects.
   */
  default Optional<ValueReader> valueReader() {
    return Optional.empty();
  }

  /** How this form updates its values where they are kept, if it does. */
  default Optional<ValueUpdater> valueUpdater() {
    return Optional.empty();
  }

  /** How a maintainer checks this form's parities against its data (a scrub), if it can. */
  default Optional<RedundancyCheck> redundancyCheck() {
    return Optional.empty();
  }

  /** The maintenance tasks only this form has, by kind, and how a maintainer carries them out. */
  default Map<MaintenanceTask.Kind, MaintenanceStep> maintenance() {
    return Map.of();
  }
}
