package io.eccache.client;

import alluxio.client.block.stream.BlockInStream;
import alluxio.client.block.stream.GrpcBlockingStream;
import alluxio.client.block.stream.GrpcDataReader;
import java.lang.reflect.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels, at the worker, the read of an Alluxio block stream.
 *
 * <p>Why: Alluxio 2.9.6's {@code GrpcDataReader.close()} half-closes its gRPC stream and then
 * waits for the worker to complete it, draining every chunk the worker still sends, so a split read
 * that late binding stopped part-way was sent whole anyway (the kernel's counters showed a slow
 * worker sending 6.3 MB for six 1 MiB reads of which the client read none). The stream's own
 * {@link GrpcBlockingStream#cancel()} resets it instead: the worker stops reading the block and
 * sends nothing more, and a read waiting for its next chunk returns at once with an error. No
 * public API reaches it, so this follows two private fields of the pinned Alluxio version (2.9.6:
 * the block stream's data reader, the reader's gRPC stream); should they change, {@link #cancel}
 * does nothing and says so once, and stopped reads are drained as before.
 * Cancelling is thread-safe: gRPC's call cancel is, and the stream's state is behind its lock.
 */
final class BlockReadCancel {
  private static final Logger LOG = LoggerFactory.getLogger(BlockReadCancel.class);
  private static final Field DATA_READER = field(BlockInStream.class, "mDataReader");
  private static final Field GRPC_STREAM = field(GrpcDataReader.class, "mStream");

  private BlockReadCancel() {}

  private static Field field(Class<?> owner, String name) {
    try {
      Field f = owner.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("eccache: {}.{} is not there (another Alluxio version?): split reads stopped"
          + " part-way are drained, not cancelled: {}", owner.getName(), name, e.toString());
      return null;
    }
  }

  /** Whether this Alluxio's streams can be cancelled. */
  static boolean supported() {
    return DATA_READER != null && GRPC_STREAM != null;
  }

  /**
   * Cancels the read {@code block} has open with its worker, if any; from any thread. Best effort:
   * a stream whose reader is not made yet (it is made at the first read), or was made an instant
   * ago by another thread, is left alone (its reader stops it itself at its next slice), and so is
   * one that reads a local block file. Returns whether a stream was cancelled.
   */
  static boolean cancel(BlockInStream block) {
    if (!supported()) {
      return false;
    }
    try {
      Object reader = DATA_READER.get(block);
      Object stream = reader instanceof GrpcDataReader ? GRPC_STREAM.get(reader) : null;
      if (stream instanceof GrpcBlockingStream && ((GrpcBlockingStream<?, ?>) stream).isOpen()) {
        ((GrpcBlockingStream<?, ?>) stream).cancel();
        return true;
      }
      return false;
    } catch (IllegalAccessException | RuntimeException e) {
      return false; // best effort: the read is stopped by its own thread all the same
    }
  }
}
