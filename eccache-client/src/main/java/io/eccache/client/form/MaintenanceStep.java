package io.eccache.client.form;

import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.MaintenanceTask;
import java.io.IOException;

/** How a maintainer carries out one kind of a form's maintenance tasks. */
public interface MaintenanceStep {
  /**
   * Carries out {@code task} through {@code maintainer}, adding what the coordinator is to record
   * to {@code report}; returns the bytes it moved.
   *
   * @throws IOException when it could not: the task is reported failed and planned again
   */
  long run(MaintenanceTask task, Maintainer maintainer, ApplyChangeRequest.Builder report)
      throws IOException;
}
