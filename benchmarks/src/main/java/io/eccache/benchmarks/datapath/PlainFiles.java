package io.eccache.benchmarks.datapath;

import alluxio.AlluxioURI;
import alluxio.client.file.FileInStream;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.grpc.CreateDirectoryPOptions;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.DeletePOptions;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
import alluxio.grpc.WorkerNetAddress;
import alluxio.grpc.WritePType;
import alluxio.wire.BlockLocation;
import alluxio.wire.FileBlockInfo;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The baselines eccache is measured against, written and read with Alluxio's own client the way
 * an application would: one MUST_CACHE file ("plain"), or an object cut into k equal parts, each a
 * MUST_CACHE file pinned to its own worker ({@code CreateFilePOptions.setWorkerLocation}, which
 * Alluxio turns into a {@code SpecificHostPolicy} for the file's blocks), moved in parallel on a
 * fixed pool as big as eccache's split I/O pool ("pk", p10 at k = 10). Every file is one block
 * (block size = its length, at least 1 MiB) with one replica, like an eccache split. Reads open
 * files from statuses fetched once at setup (no metadata RPC per read, as eccache's lookup hands
 * its client the splits' statuses) with {@code NO_CACHE}, as eccache reads splits.
 */
final class PlainFiles {
  private static final OpenFilePOptions NO_CACHE =
      OpenFilePOptions.newBuilder().setReadType(ReadPType.NO_CACHE).build();
  private static final CreateFilePOptions MUST_CACHE = CreateFilePOptions.newBuilder()
      .setWriteType(WritePType.MUST_CACHE)
      .setReplicationMax(1)
      .setRecursive(true)
      .buildPartial();

  private final FileSystem fs;
  private final ExecutorService io;
  private final List<WorkerNetAddress> workers;
  private final int k;
  private final long timeoutMs;

  /**
   * @param io the pool the k parts of one object are moved on
   * @param workers the workers files are pinned to, by index
   * @param timeoutMs the longest one object's parts may take together
   */
  PlainFiles(FileSystem fs, ExecutorService io, List<WorkerNetAddress> workers, int k,
      long timeoutMs) {
    this.fs = fs;
    this.io = io;
    this.workers = workers;
    this.k = k;
    this.timeoutMs = timeoutMs;
  }

  /** A stored "pk" object: its parts' statuses, in order, and its length. */
  static final class Parts {
    final List<URIStatus> statuses;
    final int length;

    Parts(List<URIStatus> statuses, int length) {
      this.statuses = statuses;
      this.length = length;
    }
  }

  /** Bytes of part {@code i} of an object of {@code length}: ceil(length / k), the last less. */
  int partStart(int length, int i) {
    long part = (length + (long) k - 1) / k;
    return (int) Math.min(length, part * i);
  }

  /** Writes {@code data} as one file at {@code path} pinned to worker {@code worker % workers}. */
  void writeOne(String path, byte[] data, int worker) throws IOException {
    write(path, data, 0, data.length, workers.get(Math.floorMod(worker, workers.size())));
  }

  /**
   * Writes {@code data} as k files {@code prefix}-part-i in parallel, part i pinned to worker
   * {@code (firstWorker + i) % workers}, and {@code extra} more, file k + j a copy of part j on
   * the worker after: the bytes and file count of a code with {@code extra} parities, nothing
   * coded. Returns the k parts' paths.
   */
  List<String> writeParts(String prefix, byte[] data, int firstWorker, int extra)
      throws IOException {
    List<String> paths = new ArrayList<>();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int i = 0; i < k + extra; i++) {
      String path = prefix + "-part-" + i;
      int part = i < k ? i : i - k;
      int from = partStart(data.length, part);
      int to = partStart(data.length, part + 1);
      WorkerNetAddress worker = workers.get(Math.floorMod(firstWorker + i, workers.size()));
      if (i < k) {
        paths.add(path);
      }
      tasks.add(() -> {
        write(path, data, from, to - from, worker);
        return null;
      });
    }
    runAll(tasks, "writing the " + (k + extra) + " parts of " + prefix);
    return paths;
  }

  /**
   * The parts' statuses, fetched once so that reads need no metadata RPC; checks that part i is
   * on worker {@code firstWorker + i}, as {@link #writeParts} pinned it.
   */
  Parts status(List<String> paths, int length, int firstWorker) throws IOException {
    List<URIStatus> statuses = new ArrayList<>();
    for (int i = 0; i < paths.size(); i++) {
      statuses.add(status(paths.get(i), firstWorker + i));
    }
    return new Parts(statuses, length);
  }

  /** The status of a file written pinned to {@code worker}, checking that it is there. */
  URIStatus status(String path, int worker) throws IOException {
    URIStatus status;
    try {
      status = fs.getStatus(new AlluxioURI(path));
    } catch (AlluxioException e) {
      throw new IOException("status of " + path + ": " + e.getMessage(), e);
    }
    String wanted = workers.get(Math.floorMod(worker, workers.size())).getHost();
    for (FileBlockInfo block : status.getFileBlockInfos()) {
      for (BlockLocation at : block.getBlockInfo().getLocations()) {
        if (!wanted.equals(at.getWorkerAddress().getHost())) {
          throw new IOException(path + " was cached on " + at.getWorkerAddress().getHost()
              + ", not on " + wanted + " where it was pinned (CreateFilePOptions"
              + ".setWorkerLocation): the baseline would not be what it claims, so the run stops");
        }
      }
    }
    return status;
  }

  /** Reads one file whole, in the calling thread. */
  byte[] readOne(URIStatus status) throws IOException {
    byte[] dst = new byte[Math.toIntExact(status.getLength())];
    read(status, dst, 0, dst.length);
    return dst;
  }

  /** Reads the k parts in parallel, each into its place in one array. */
  byte[] readParts(Parts parts) throws IOException {
    byte[] dst = new byte[parts.length];
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int i = 0; i < parts.statuses.size(); i++) {
      URIStatus s = parts.statuses.get(i);
      int from = partStart(parts.length, i);
      int to = partStart(parts.length, i + 1);
      tasks.add(() -> {
        read(s, dst, from, to - from);
        return null;
      });
    }
    runAll(tasks, "reading the " + parts.statuses.size() + " parts of "
        + parts.statuses.get(0).getPath());
    return dst;
  }

  /** Creates {@code dir} and its parents (not persisted: nothing here goes to the under store). */
  void mkdirs(String dir) throws IOException {
    try {
      fs.createDirectory(new AlluxioURI(dir), CreateDirectoryPOptions.newBuilder()
          .setRecursive(true).setAllowExists(true).setWriteType(WritePType.MUST_CACHE).build());
    } catch (AlluxioException e) {
      throw new IOException("creating " + dir + ": " + e.getMessage(), e);
    }
  }

  /** Deletes {@code path} and everything under it, from Alluxio only. */
  void deleteAll(String path) throws IOException {
    try {
      fs.delete(new AlluxioURI(path), DeletePOptions.newBuilder().setRecursive(true)
          .setAlluxioOnly(true).build());
    } catch (alluxio.exception.FileDoesNotExistException gone) {
      // nothing was written there
    } catch (AlluxioException e) {
      throw new IOException("deleting " + path + ": " + e.getMessage(), e);
    }
  }

  private void write(String path, byte[] data, int off, int len, WorkerNetAddress worker)
      throws IOException {
    CreateFilePOptions options = MUST_CACHE.toBuilder()
        .setBlockSizeBytes(Math.max(len, 1 << 20))
        .setWorkerLocation(worker)
        .build();
    FileOutStream out;
    try {
      out = fs.createFile(new AlluxioURI(path), options);
    } catch (AlluxioException e) {
      throw new IOException("creating " + path + " on " + worker.getHost() + ": "
          + e.getMessage(), e);
    }
    try {
      out.write(data, off, len);
    } catch (IOException | RuntimeException e) {
      out.cancel();
      throw e;
    }
    out.close();
  }

  private void read(URIStatus status, byte[] dst, int off, int len) throws IOException {
    FileInStream in;
    try {
      in = fs.openFile(status, NO_CACHE);
    } catch (AlluxioException e) {
      throw new IOException("opening " + status.getPath() + ": " + e.getMessage(), e);
    }
    try (FileInStream open = in) {
      int done = 0;
      while (done < len) {
        int n = open.read(dst, off + done, len - done);
        if (n < 0) {
          throw new EOFException(status.getPath() + " ended at byte " + done + " of " + len);
        }
        done += n;
      }
    }
  }

  /** Runs every task on the pool, waits for all within the timeout, cancels the rest on failure. */
  private void runAll(List<Callable<Void>> tasks, String what) throws IOException {
    List<Future<Void>> futures = new ArrayList<>();
    for (Callable<Void> t : tasks) {
      futures.add(io.submit(t));
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    try {
      for (Future<Void> f : futures) {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw new IOException(what + " failed: " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      throw new DeadlineExceededException(what + " took more than " + timeoutMs + " ms: the"
          + " cluster is stuck or overloaded; take a jstack of this process and look at the"
          + " workers' threads");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while " + what, e);
    } finally {
      for (Future<Void> f : futures) {
        f.cancel(true); // no-op for those done
      }
    }
  }
}
