package io.eccache.client.form;

import alluxio.client.file.URIStatus;
import alluxio.grpc.WorkerNetAddress;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import java.io.IOException;

/** What a form's maintenance step may use of the maintainer running it. */
public interface Maintainer extends FormIo {
  /** The object's layout and splits now, not counted as a read. */
  LookupResponse lookup(String key) throws IOException;

  /**
   * The object of {@code task} as it is now, if it is still the version the task was planned for.
   *
   * @throws IOException when it was replaced (or deleted) since: the task is void
   */
  default LookupResponse lookupPlanned(MaintenanceTask task) throws IOException {
    LookupResponse lookup = lookup(task.getKey());
    if (!lookup.getLayout().getWriteId().equals(task.getWriteId())) {
      throw new IOException("'" + task.getKey() + "' was replaced since the task was planned");
    }
    return lookup;
  }

  /** The committed object {@code lookup} describes, read whole (a small one: into an array). */
  byte[] readObject(LookupResponse lookup) throws IOException;

  /**
   * Writes {@code value} as {@code key}'s next version, a new write the key's form places as it
   * would a user's PUT (never an update where the value is), committed only if the key still
   * holds write {@code expectedWriteId}.
   *
   * @return false when the key was written or deleted meanwhile (nothing changed)
   */
  boolean rewrite(String key, byte[] value, String expectedWriteId) throws IOException;

  /** Waits for {@code bytes} of the maintainer's bandwidth. */
  void acquireBandwidth(long bytes);

  /** Loads the file {@code status} into {@code worker}'s cache from its under store; its bytes. */
  long cacheOn(URIStatus status, WorkerNetAddress worker) throws IOException;

  /** Removes the file {@code status}'s blocks from {@code worker}'s cache. */
  void uncacheOn(URIStatus status, WorkerNetAddress worker) throws IOException;
}
