package io.eccache.client;

import alluxio.AlluxioURI;
import alluxio.client.file.FileOutStream;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.CancelledException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.WritePType;
import alluxio.security.authorization.Mode;
import io.eccache.client.form.FormIo;
import io.eccache.client.form.packed.LogNodeClient;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.proto.Split;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The I/O the storage forms' own paths do ({@link FormIo}), on the client's threads, each piece
 * bounded by the I/O timeout: range reads of a file on its worker (Alluxio's block streams, as
 * split reads), and small pinned files written whole.
 */
final class ClientFormIo implements FormIo {
  /** Unit files and other small files of a form: readable by their owner only, as split files. */
  private static final short OWNER_ONLY = 0600;

  private final ClientContext context;
  private final AlluxioSplitSource source;
  private final AtomicLong fileReads = new AtomicLong();
  private final AtomicLong fileWrites = new AtomicLong();

  ClientFormIo(ClientContext context) {
    this.context = context;
    this.source = new AlluxioSplitSource(context.alluxio(), context.statistics());
  }

  @Override
  public byte[] readRange(Split split, long offset, int length) throws IOException {
    RangeRead read = new RangeRead(split, offset, length);
    return await(context.io().submit(read), System.nanoTime(), read::describe, read::cancel);
  }

  @Override
  public List<byte[]> readRanges(List<Split> splits, long offset, int length,
      List<IOException> failures) {
    List<RangeRead> reads = new ArrayList<>();
    List<Future<byte[]>> running = new ArrayList<>();
    for (Split split : splits) {
      RangeRead read = new RangeRead(split, offset, length);
      reads.add(read);
      running.add(context.io().submit(read));
    }
    long began = System.nanoTime();
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < reads.size(); i++) {
      try {
        out.add(await(running.get(i), began, reads.get(i)::describe, reads.get(i)::cancel));
      } catch (IOException e) {
        failures.add(e);
        out.add(null);
      }
    }
    return out;
  }

  /** One range of one file, read whole from its worker; cancellable from another thread. */
  private final class RangeRead implements Callable<byte[]> {
    final Split split;
    final long offset;
    final int length;
    final AtomicReference<SplitSource.SplitStream> open = new AtomicReference<>();

    RangeRead(Split split, long offset, int length) {
      this.split = split;
      this.offset = offset;
      this.length = length;
    }

    @Override
    public byte[] call() throws IOException {
      fileReads.incrementAndGet();
      byte[] out = new byte[length];
      try (SplitSource.SplitStream in = source.open(split, offset)) {
        open.set(in);
        for (int at = 0; at < length; ) {
          int n = in.read(out, at, length - at);
          if (n < 0) {
            throw new EOFException(split.getPath() + " ends before byte " + (offset + length));
          }
          at += n;
        }
      }
      return out;
    }

    void cancel() {
      SplitSource.SplitStream in = open.get();
      if (in != null) {
        in.cancel();
      }
    }

    String describe() {
      return "reading bytes [" + offset + ", " + (offset + length) + ") of " + split.getPath()
          + " on " + split.getWorker().getHost();
    }
  }

  @Override
  public void writeFiles(List<NewFile> files) throws IOException {
    List<alluxio.grpc.WorkerNetAddress> workers = new ArrayList<>();
    files.forEach(f -> workers.add(f.worker));
    context.awaitWorkersKnown(workers);
    List<Future<Void>> writing = new ArrayList<>();
    for (NewFile file : files) {
      CreateFilePOptions options = CreateFilePOptions.newBuilder()
          .setWriteType(WritePType.MUST_CACHE).setReplicationMax(1)
          .setBlockSizeBytes(Math.max(1, file.bytes.length)).setRecursive(true)
          .setOverwrite(true).setMode(new Mode(OWNER_ONLY).toProto())
          .setWorkerLocation(file.worker).build();
      writing.add(context.io().submit(() -> {
        AlluxioURI uri = new AlluxioURI(file.path);
        try (FileOutStream out = file.created ? context.openCreated(uri, options)
            : context.fs().createFile(uri, options)) {
          out.write(file.bytes);
        } catch (AlluxioException e) {
          throw new IOException("writing " + file.path + ": " + e.getMessage(), e);
        }
        return null;
      }));
    }
    long began = System.nanoTime();
    IOException failed = null;
    for (int i = 0; i < files.size(); i++) {
      NewFile file = files.get(i);
      try {
        await(writing.get(i), began, () -> "writing " + file.path + " on "
            + file.worker.getHost(), () -> { });
        fileWrites.incrementAndGet();
      } catch (IOException e) {
        failed = failed == null ? e : failed;
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  /** Files read by range reads so far (each range of each file once), for tests' counts. */
  long fileReads() {
    return fileReads.get();
  }

  /** Files written whole so far, for tests' counts. */
  long fileWrites() {
    return fileWrites.get();
  }

  /**
   * Waits for {@code running} until the I/O timeout after {@code beganNanos}; past it,
   * {@code stop} ends the work at its worker and the wait fails, typed, naming {@code what}.
   */
  private <T> T await(Future<T> running, long beganNanos, Supplier<String> what, Runnable stop)
      throws IOException {
    long timeoutMs = context.ioTimeoutMs();
    try {
      long left = TimeUnit.MILLISECONDS.toNanos(timeoutMs) - (System.nanoTime() - beganNanos);
      return running.get(Math.max(0, left), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      stop.run();
      running.cancel(true);
      throw new DeadlineExceededException(what.get() + " took more than " + timeoutMs
          + " ms (alluxio.user.eccache.io.timeout): check that worker");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      throw new IOException(what.get() + " failed: " + cause, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running.cancel(true);
      throw new CancelledException("interrupted while " + what.get());
    }
  }

  @Override
  public ExecutorService io() {
    return context.io();
  }

  @Override
  public long ioTimeoutMs() {
    return context.ioTimeoutMs();
  }

  @Override
  public LogNodeClient logNodes() {
    return context.logNodes();
  }

  @Override
  public CoordinatorClient coordinator() {
    return context.coordinator();
  }
}
