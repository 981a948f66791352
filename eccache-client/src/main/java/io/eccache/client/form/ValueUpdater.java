package io.eccache.client.form;

import io.eccache.common.proto.AllocateResponse;
import java.io.IOException;

/**
 * How a form updates a value where it is kept, when the coordinator answered a PUT with an update
 * ({@code AllocateResponse.update}) instead of a new write.
 */
public interface ValueUpdater {
  /** Whether {@code allocation} is an update this form carries out. */
  boolean handles(AllocateResponse allocation);

  /**
   * Carries the update out and commits it: on return the key holds {@code value}; on a failure it
   * holds its previous version.
   *
   * @param sha256 the new value's SHA-256 for its layout, or an empty array
   * @param clock the update's clock, started before its allocation: laps for each phase
   * @throws alluxio.exception.status.AbortedException when the update lost its lease (nothing
   *     changed): PUT again
   */
  void update(String key, byte[] value, byte[] sha256, AllocateResponse allocation, FormIo io,
      UpdatePhases.Clock clock) throws IOException;
}
