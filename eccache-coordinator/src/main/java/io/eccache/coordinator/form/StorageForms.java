package io.eccache.coordinator.form;

import alluxio.exception.AlluxioException;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The registered storage forms, asked in order: the first that takes a key stores its new writes,
 * the first that holds a layout describes and sweeps it. The last form takes every key.
 */
public final class StorageForms {
  private final List<StorageForm> forms;

  /** @param forms in the order they are asked; the last takes every key */
  public StorageForms(List<StorageForm> forms) {
    if (forms.isEmpty()) {
      throw new IllegalArgumentException("no storage form registered");
    }
    this.forms = List.copyOf(forms);
  }

  /** The form a new write of {@code key} takes. */
  public StorageForm forKey(String key) {
    for (StorageForm form : forms) {
      if (form.takes(key)) {
        return form;
      }
    }
    return forms.get(forms.size() - 1);
  }

  /** The form of the kept layout {@code layout}. */
  public StorageForm of(Layout layout) {
    for (StorageForm form : forms) {
      if (form.holds(layout)) {
        return form;
      }
    }
    throw new IllegalStateException("no storage form holds the layout of '" + layout.getKey()
        + "' (write " + layout.getWriteId() + ")");
  }

  /**
   * Records a maintainer's report of a task only one form has; empty when no form has its kind.
   */
  public Optional<Boolean> applyChange(MaintenanceTask task, ApplyChangeRequest request)
      throws IOException, AlluxioException {
    for (StorageForm form : forms) {
      Optional<Boolean> applied = form.applyChange(task, request);
      if (applied.isPresent()) {
        return applied;
      }
    }
    return Optional.empty();
  }

  /** Tells the forms a task handed out once was not reported before its lease expired. */
  public void expired(MaintenanceTask task) {
    forms.forEach(form -> form.expired(task));
  }

  /** Every form, in order. */
  public List<StorageForm> all() {
    return forms;
  }

  /** The registered form of class {@code type}, if any. */
  public <T extends StorageForm> Optional<T> find(Class<T> type) {
    for (StorageForm form : forms) {
      if (type.isInstance(form)) {
        return Optional.of(type.cast(form));
      }
    }
    return Optional.empty();
  }
}
