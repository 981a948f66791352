package io.eccache.client.form;

import alluxio.grpc.WorkerNetAddress;
import io.eccache.client.form.packed.LogNodeClient;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;

/** The I/O a form's own read, write or maintenance path may do, through the client's resources. */
public interface FormIo {
  /**
   * Bytes {@code [offset, offset + length)} of the file of {@code split} (as a lookup described
   * it), read from the worker caching it; within the I/O timeout, or a typed error.
   */
  byte[] readRange(Split split, long offset, int length) throws IOException;

  /**
   * The same range of several files at once, each on its own I/O thread, all within one I/O
   * timeout: one entry per split, in order, null where that read failed (its error in
   * {@code failures}).
   */
  List<byte[]> readRanges(List<Split> splits, long offset, int length, List<IOException> failures);

  /**
   * Writes each of {@code files} whole as a new file (parents made), cached only, one block on
   * its worker, readable by its owner only, replacing a file left there by an earlier try (or
   * into the empty file the coordinator created); all at once, within one I/O timeout.
   *
   * @throws IOException the first failure, once every write has ended
   */
  void writeFiles(List<NewFile> files) throws IOException;

  /** A small file to write whole: where, on which worker, what. */
  final class NewFile {
    public final String path;
    public final WorkerNetAddress worker;
    public final byte[] bytes;
    /** Whether the coordinator created it already (empty, the writer's): opened, not created. */
    public final boolean created;

    /** A file the writer creates. */
    public NewFile(String path, WorkerNetAddress worker, byte[] bytes) {
      this(path, worker, bytes, false);
    }

    private NewFile(String path, WorkerNetAddress worker, byte[] bytes, boolean created) {
      this.path = path;
      this.worker = worker;
      this.bytes = bytes;
      this.created = created;
    }

    /** A file the coordinator created for the writer (a writer may not create it there). */
    public static NewFile created(String path, WorkerNetAddress worker, byte[] bytes) {
      return new NewFile(path, worker, bytes, true);
    }
  }

  /** The client's I/O threads, for work that waits on a worker. */
  ExecutorService io();

  /** The longest one piece of I/O may take ({@code alluxio.user.eccache.io.timeout}). */
  long ioTimeoutMs();

  /** The client's calls to log nodes. */
  LogNodeClient logNodes();

  /** The client's calls to the coordinator. */
  CoordinatorClient coordinator();
}
