package io.eccache.coordinator.form;

import alluxio.exception.status.UnavailableException;
import alluxio.wire.WorkerInfo;
import java.util.List;

/**
 * The workers as the coordinator sees them: who is live, and counts that move when any is lost or
 * found. A port, so placement and liveness rules have unit tests; the coordinator's
 * {@code AlluxioNamespace} answers from the BlockMaster.
 */
public interface WorkersPort {
  /** The live workers. */
  List<WorkerInfo> live() throws UnavailableException;

  /** How many workers are live now (cheap). */
  int liveCount();

  /** How many workers are lost now (cheap). */
  int lostCount();
}
