package io.eccache.coordinator.form;

import alluxio.exception.AlluxioException;
import alluxio.wire.FileInfo;
import java.io.IOException;

/** What one sweep knows, for a form's share of it. */
public interface SweepPass {
  /** The sweep's time. */
  long nowMs();

  /** Whether write {@code writeId} awaits its commit. */
  boolean pending(String writeId);

  /** Whether write {@code writeId} is retired and still in its grace (readers may read it). */
  boolean inGrace(String writeId);

  /**
   * Whether {@code file} is older than the allocation timeout, so no write in flight can still be
   * making it.
   */
  boolean isOld(FileInfo file);

  /** The write id {@code key} holds now ("" for none). */
  String committedWriteId(String key) throws IOException, AlluxioException;
}
