package io.eccache.client.form;

import io.eccache.client.form.packed.PackedClientForm;
import io.eccache.client.form.regional.RegionalClientForm;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import java.util.List;
import java.util.Optional;

/** The client's registered storage forms (besides striped objects, the client's own). */
public final class ClientForms {
  /** The one registration a new form adds. */
  public static final ClientForms REGISTERED = new ClientForms(
      List.of(new RegionalClientForm(), new PackedClientForm()));

  private final List<ClientForm> forms;

  public ClientForms(List<ClientForm> forms) {
    this.forms = List.copyOf(forms);
  }

  /** The form holding {@code layout}, if one does (none: a striped object). */
  public Optional<ClientForm> of(Layout layout) {
    for (ClientForm form : forms) {
      if (form.holds(layout)) {
        return Optional.of(form);
      }
    }
    return Optional.empty();
  }

  /** The updater of the form that handles the update {@code allocation}, if one does. */
  public Optional<ValueUpdater> updater(AllocateResponse allocation) {
    for (ClientForm form : forms) {
      Optional<ValueUpdater> updater = form.valueUpdater();
      if (updater.isPresent() && updater.get().handles(allocation)) {
        return updater;
      }
    }
    return Optional.empty();
  }

  /** The step carrying out a task of {@code kind}, if a form has that kind. */
  public Optional<MaintenanceStep> step(MaintenanceTask.Kind kind) {
    for (ClientForm form : forms) {
      MaintenanceStep step = form.maintenance().get(kind);
      if (step != null) {
        return Optional.of(step);
      }
    }
    return Optional.empty();
  }
}
