package io.eccache.client;

import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.LookupResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * A streaming GET: the object window by window, each window a late-binding read of whole stripes,
 * the next one read ahead while the caller consumes this one. Memory stays at two windows whatever
 * the object's size. If a window cannot be read from the cache (fewer than k splits left) and the
 * object is also in the under store, the rest of it comes from there. Not thread-safe.
 */
final class ObjectReadStream extends InputStream {
  /** Opens the object in the under store at an offset, for a stream the cache cannot finish. */
  interface UnderStore {
    InputStream openAt(long position) throws IOException;
  }

  private final LateBindingReader reader;
  private final ExecutorService prefetcher;
  private final LookupResponse lookup;
  private final int delta;
  private final int windowStripes;
  private final UnderStore underStore;
  private final ReadStatistics statistics;
  private final StripeGeometry geometry;

  private long position;
  private int nextStripe;
  private StripeWindow current;
  private Future<StripeWindow> ahead;
  private InputStream fallback;
  private boolean closed;

  /**
   * @param underStore where to finish the object when the cache cannot; null when the under store
   *     has no copy of this version
   */
  ObjectReadStream(LateBindingReader reader, ExecutorService prefetcher, LookupResponse lookup,
      int delta, long windowBytes, UnderStore underStore, ReadStatistics statistics) {
    this.reader = reader;
    this.prefetcher = prefetcher;
    this.lookup = lookup;
    this.delta = delta;
    this.underStore = underStore;
    this.statistics = statistics;
    this.geometry = StripeGeometry.of(lookup.getLayout());
    long stripeBytes = Math.max(1, geometry.k() * geometry.cellSize());
    this.windowStripes = (int) Math.max(1, Math.min(Integer.MAX_VALUE, windowBytes / stripeBytes));
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("stream closed");
    }
    if (len == 0) {
      return 0;
    }
    if (position >= geometry.objectSize()) {
      return -1;
    }
    if (fallback != null) {
      int n = fallback.read(b, off, len);
      if (n > 0) {
        position += n;
      }
      return n;
    }
    if (current == null || position >= current.objectEnd()) {
      if (!advance()) {
        return read(b, off, len); // switched to the under store
      }
    }
    int n = current.copy(position, b, off, len);
    position += n;
    return n;
  }

  @Override
  public int available() {
    return current == null || fallback != null ? 0 : (int) (current.objectEnd() - position);
  }

  /** Moves to the next window; false when the rest now comes from the under store. */
  private boolean advance() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
    try {
      current = ahead != null ? await(ahead) : readWindow(nextStripe);
      ahead = null;
      nextStripe = Math.min(geometry.stripes(), nextStripe + windowStripes);
    } catch (IOException e) {
      ahead = null;
      if (underStore == null) {
        throw e;
      }
      statistics.addFallback();
      fallback = underStore.openAt(position);
      return false;
    }
    if (nextStripe < geometry.stripes()) {
      int from = nextStripe;
      ahead = prefetcher.submit(() -> readWindow(from));
    }
    return true;
  }

  private StripeWindow readWindow(int from) throws IOException {
    int to = Math.min(geometry.stripes(), from + windowStripes);
    return reader.read(lookup, delta, from, to);
  }

  private static StripeWindow await(Future<StripeWindow> f) throws IOException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw IoErrors.asIOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading ahead", e);
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (current != null) {
      current.close();
    }
    if (ahead != null) {
      Future<StripeWindow> pending = ahead;
      // Give the read-ahead's buffers back once it finishes; do not wait for it here.
      prefetcher.submit(() -> {
        try {
          await(pending).close();
        } catch (IOException ignored) {
          // nothing to give back
        }
        return null;
      });
    }
    if (fallback != null) {
      fallback.close();
    }
  }
}
