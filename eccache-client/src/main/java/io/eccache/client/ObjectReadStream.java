package io.eccache.client;

import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The one read path: every GET, into an array ({@link #readAll()}) or as a stream, and eccache's own
 * reads (ASYNC persist, rewrite) go through it. The object comes window by window, each window a
 * late-binding read of whole stripes, the next one read ahead while the caller consumes this one;
 * memory stays at two windows whatever the object's size. {@link #readAll()}, and a positioned read
 * of whole windows, read straight into the caller's array (the next window ahead into its own part
 * of it); a stream reads into two window arrays it reuses.
 *
 * <p>When a window cannot be read from the cache, the rest of the object comes from its
 * {@link UnderStoreCopy} (which says whether there is one, and of which version), and the copy is
 * told once that bytes came from the under store, so the object is cached again: from the array
 * itself when {@link #readAll()} read it whole, in the background otherwise. That is the only
 * fallback and re-caching policy (see {@link UnderStoreSync}).
 *
 * <p>Ranges: {@link #seek(long)} moves to the window holding the new position (the first window
 * after a jump is not read ahead of, so a seek and a short read cost about one window), and a
 * positioned read ({@link #read(long, byte[], int, int)}) reads just the stripes its range lies in,
 * each window bound late again, without touching the stream's own window. Calls are serialized.
 */
final class ObjectReadStream extends SeekableObjectStream {
  /** Where the object comes from when the cache cannot serve it, and how it is cached again. */
  interface UnderStoreCopy {
    /**
     * The object in the under store from {@code position} on, once the cache failed with
     * {@code cause}; throws (that cause, or one that says more) when there is no copy to read.
     */
    InputStream openAt(long position, IOException cause) throws IOException;

    /**
     * Called once after bytes were served from the under store: store the object again, from
     * {@code whole} (the complete object just read) or, when null, from the under store.
     */
    void recache(byte[] whole);
  }

  /** No under-store copy: a window the cache cannot read fails the stream. */
  static final UnderStoreCopy NO_COPY = new UnderStoreCopy() {
    @Override
    public InputStream openAt(long position, IOException cause) throws IOException {
      throw cause;
    }

    @Override
    public void recache(byte[] whole) {}
  };

  /**
   * A GET into an array reads this many streaming windows per late-binding round (512 MB by
   * default): the array holds them anyway; only the staged parities (Δ/k of it, data-first) add.
   */
  private static final int ARRAY_WINDOWS = 8;

  private final ClientContext context;
  private final LateBindingReader reader;
  private final LookupResponse lookup;
  private final String key;
  private final long size;
  private final StripeGeometry geometry;
  private final int delta;
  private final int windowStripes;
  private final UnderStoreCopy copy;

  private long position;
  private int nextStripe;
  private StripeWindow current;
  private Future<StripeWindow> ahead;
  /** The first stripe of the window {@link #ahead} reads. */
  private int aheadFrom = -1;
  /** Whether the next window may read ahead: not the first window after a seek. */
  private boolean sequential = true;
  private InputStream fallback;
  /** A small value read whole by its form ({@link #ofValue}): what {@link #fallback} streams. */
  private byte[] value;
  private boolean recached;
  private boolean closed;
  /** Window arrays not in use, for the next windows. */
  private final List<byte[]> spare = new ArrayList<>(2);

  private ObjectReadStream(ClientContext context, LateBindingReader reader, LookupResponse lookup,
      String key, long size, int delta, UnderStoreCopy copy) {
    this.context = context;
    this.reader = reader;
    this.lookup = lookup;
    this.key = key;
    this.size = size;
    this.copy = copy;
    if (lookup == null) {
      this.geometry = null;
      this.delta = 0;
      this.windowStripes = 1;
    } else {
      Layout layout = lookup.getLayout();
      this.geometry = StripeGeometry.of(layout);
      // A replicated object is read from one copy chosen at random (another if that one fails).
      this.delta = SchemeProtos.of(layout).kind() == RedundancyScheme.Kind.REPLICATED ? 0 : delta;
      long stripeBytes = Math.max(1, geometry.k() * geometry.cellSize());
      this.windowStripes = (int) Math.max(1,
          Math.min(Integer.MAX_VALUE, context.streamWindowBytes() / stripeBytes));
    }
  }

  /** The cached object {@code lookup} names, read with k + {@code delta} splits per window. */
  static ObjectReadStream cached(ClientContext context, LateBindingReader reader,
      LookupResponse lookup, int delta, UnderStoreCopy copy) {
    return new ObjectReadStream(context, reader, lookup, lookup.getLayout().getKey(),
        lookup.getLayout().getObjectSize(), delta, copy);
  }

  /** An object the cache does not hold, read from the under store ({@code in}, at its start). */
  static ObjectReadStream fromUnderStore(ClientContext context, String key, long size,
      InputStream in, UnderStoreCopy copy) {
    ObjectReadStream stream = new ObjectReadStream(context, null, null, key, size, 0, copy);
    stream.fallback = in;
    context.statistics().addFallback();
    return stream;
  }

  /**
   * A small value a storage form read whole ({@code ValueReader}): served from memory, seekable
   * anywhere.
   */
  static ObjectReadStream ofValue(ClientContext context, String key, byte[] value) {
    ObjectReadStream stream = new ObjectReadStream(context, null, null, key, value.length, 0,
        NO_COPY);
    stream.value = value;
    stream.fallback = new ByteArrayInputStream(value);
    return stream;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public synchronized long getPos() throws IOException {
    checkOpen();
    return position;
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0 || target > size) {
      throw new EOFException("cannot seek to byte " + target + " of '" + key + "' (" + size
          + " bytes): " + (target < 0 ? "negative position" : "past the end"));
    }
    if (target == position) {
      return;
    }
    if (fallback != null) {
      seekFallback(target);
      position = target;
      return;
    }
    position = target;
    if (current != null && target >= current.objectStart() && target < current.objectEnd()) {
      return;
    }
    if (current != null) {
      current.close();
      current = null;
    }
    int stripe = target < size ? geometry.stripeOf(target) : geometry.stripes();
    if (ahead != null && aheadFrom != stripe) {
      releaseLater(ahead);
      ahead = null;
    }
    nextStripe = stripe;
    sequential = false;
  }

  @Override
  public synchronized int read(long at, byte[] b, int off, int len) throws IOException {
    checkOpen();
    Objects.checkFromIndexSize(off, len, b.length);
    if (at < 0) {
      throw new EOFException("cannot read at byte " + at + " of '" + key + "': negative position");
    }
    if (len == 0) {
      return 0;
    }
    if (at >= size) {
      return -1;
    }
    int n = (int) Math.min(len, size - at);
    readRange(at, b, off, n);
    return n;
  }

  @Override
  public synchronized void readFully(long at, byte[] b, int off, int len) throws IOException {
    checkOpen();
    Objects.checkFromIndexSize(off, len, b.length);
    if (at < 0 || at > size - len) {
      throw new EOFException("cannot read bytes [" + at + ", " + (at + len) + ") of '" + key
          + "' (" + size + " bytes): the range is not inside the object");
    }
    if (len > 0) {
      readRange(at, b, off, len);
    }
  }

  /**
   * Reads exactly the {@code n} object bytes at {@code at} (inside the object) into {@code b}: only
   * the stripes they lie in, at most a window per late-binding round; when the cache cannot, from
   * the under store as the stream does. The stream's position and window stay as they are.
   */
  private void readRange(long at, byte[] b, int off, int n) throws IOException {
    if (value != null) {
      System.arraycopy(value, Math.toIntExact(at), b, off, n);
      return;
    }
    if (lookup == null) {
      if (!(fallback instanceof UnderStore.CopyStream)) {
        throw new IOException("cannot read '" + key + "' at a position: its under-store stream"
            + " is not seekable; open it again");
      }
      UnderStore.CopyStream s3 = (UnderStore.CopyStream) fallback;
      s3.seek(at);
      readUnderStore(s3, b, off, n, at);
      s3.seek(position);
      return;
    }
    long p = at;
    long end = at + n;
    int last = geometry.stripeOf(end - 1);
    while (p < end) {
      int from = geometry.stripeOf(p);
      int to = Math.min(last + 1, from + windowStripes);
      long windowStart = geometry.objectOffset(from);
      long windowEnd = Math.min(size, geometry.objectOffset(to));
      try {
        if (windowStart == p && windowEnd <= end) {
          // The whole window is wanted: straight into the caller's array.
          reader.read(lookup, delta, from, to, b, off + (int) (p - at));
          p = windowEnd;
        } else {
          try (StripeWindow window = readWindow(from, to)) {
            p += window.copy(p, b, off + (int) (p - at), (int) (end - p));
          }
        }
      } catch (IOException e) {
        context.statistics().addFallback();
        try (InputStream in = copy.openAt(p, e)) {
          readUnderStore(in, b, off + (int) (p - at), (int) (end - p), p);
        }
        if (!recached) {
          recached = true;
          copy.recache(null);
        }
        return;
      }
    }
  }

  private void readUnderStore(InputStream in, byte[] b, int off, int n, long at)
      throws IOException {
    int got = in.readNBytes(b, off, n);
    context.statistics().addFallbackBytes(got);
    if (got < n) {
      throw underStoreEnded(at + got);
    }
  }

  /**
   * The under store's copy ended at {@code at}, before the object's size: an end there would hand
   * the caller a truncated object.
   */
  private IOException underStoreEnded(long at) {
    return new IOException("the under store's copy of '" + key + "' ended at byte " + at + " of "
        + size + "; GET it again");
  }

  /** Moves the under-store stream this one reads from to {@code target}. */
  private void seekFallback(long target) throws IOException {
    if (fallback instanceof UnderStore.CopyStream) {
      ((UnderStore.CopyStream) fallback).seek(target);
    } else if (fallback instanceof ByteArrayInputStream) {
      fallback.reset(); // a value in memory: back to its start, then on
      com.google.common.io.ByteStreams.skipFully(fallback, target);
    } else if (target >= position) {
      com.google.common.io.ByteStreams.skipFully(fallback, target - position);
    } else {
      throw new IOException("cannot seek back in '" + key + "': its under-store stream is not"
          + " seekable; open it again");
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("stream of '" + key + "' is closed");
    }
  }

  /**
   * The whole object as an array, from a stream nothing has been read from yet: window by window,
   * each read straight into its place in the array (one window for an object that fits one).
   *
   * @throws alluxio.exception.status.InvalidArgumentException if it is too large for an array
   */
  synchronized byte[] readAll() throws IOException {
    if (position != 0 || closed) {
      throw new IllegalStateException("readAll() reads a stream from its start");
    }
    EcCacheClient.checkArraySize(key, size);
    byte[] object = new byte[(int) size];
    if (fallback == null) {
      readCachedInto(object);
    }
    if (fallback != null) {
      int n = fallback.readNBytes(object, (int) position, (int) (size - position));
      context.statistics().addFallbackBytes(n);
      if (n < size - position) {
        throw underStoreEnded(position + n);
      }
      position = size;
      recached = true;
      copy.recache(object);
    }
    return object;
  }

  /**
   * Reads the cached object into {@code object}, window by window, straight into place, the next
   * window read ahead (into its own part of the array) while this thread reads the current one.
   * When a window cannot be read, the rest comes from the under store: {@link #fallback} is set at
   * {@link #position}, once the window read ahead no longer writes into the array.
   */
  private void readCachedInto(byte[] object) throws IOException {
    // The array holds the whole object, so its windows need not be small: one split stream per
    // split and window, and fewer rounds to wait on, up to what staging parities may cost.
    int stripesPerWindow = (int) Math.min(Integer.MAX_VALUE, (long) ARRAY_WINDOWS * windowStripes);
    Future<?> next = null;
    for (int from = 0; from < geometry.stripes(); ) {
      int to = Math.min(geometry.stripes(), from + stripesPerWindow);
      Future<?> current = next;
      next = null;
      if (to < geometry.stripes()) {
        int aheadFrom = to;
        int aheadTo = Math.min(geometry.stripes(), to + stripesPerWindow);
        next = context.readAhead().submit(() -> {
          reader.read(lookup, delta, aheadFrom, aheadTo, object,
              (int) geometry.objectOffset(aheadFrom));
          return null;
        });
      }
      try {
        if (current != null) {
          await(current);
        } else {
          reader.read(lookup, delta, from, to, object, (int) geometry.objectOffset(from));
        }
      } catch (IOException e) {
        if (next != null) {
          awaitQuietly(next); // it writes into the array until it returns
        }
        fallback = copy.openAt(position, e);
        context.statistics().addFallback();
        return;
      }
      position = Math.min(size, geometry.objectOffset(to));
      from = to;
    }
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (position >= size) {
      return -1;
    }
    if (fallback == null && (current == null || position >= current.objectEnd())) {
      advance();
    }
    if (fallback != null) {
      if (!recached) {
        recached = true;
        copy.recache(null); // a stream does not hold the whole object: from the under store
      }
      int n = fallback.read(b, off, len);
      if (n < 0) {
        throw underStoreEnded(position);
      }
      position += n;
      context.statistics().addFallbackBytes(n);
      return n;
    }
    int n = current.copy(position, b, off, len);
    position += n;
    return n;
  }

  @Override
  public synchronized int available() {
    return current == null || fallback != null ? 0 : (int) (current.objectEnd() - position);
  }

  /** Moves to the next window, or to the under store when the cache cannot read it. */
  private void advance() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
    try {
      Future<StripeWindow> pending = ahead;
      ahead = null;
      if (pending != null && aheadFrom != nextStripe) {
        releaseLater(pending);
        pending = null;
      }
      current = pending != null ? await(pending) : readWindow(nextStripe);
      nextStripe = Math.min(geometry.stripes(), nextStripe + windowStripes);
    } catch (IOException e) {
      fallback = copy.openAt(position, e);
      context.statistics().addFallback();
      return;
    }
    if (sequential && nextStripe < geometry.stripes()) {
      int from = nextStripe;
      aheadFrom = from;
      ahead = context.readAhead().submit(() -> readWindow(from));
    }
    sequential = true;
  }

  private StripeWindow readWindow(int from) throws IOException {
    return readWindow(from, Math.min(geometry.stripes(), from + windowStripes));
  }

  /** Stripes {@code [from, to)} into one of this stream's window arrays. */
  private StripeWindow readWindow(int from, int to) throws IOException {
    long start = geometry.objectOffset(from);
    long end = Math.min(size, geometry.objectOffset(to));
    byte[] bytes = windowArray((int) (end - start));
    try {
      reader.read(lookup, delta, from, to, bytes, 0);
    } catch (IOException | RuntimeException e) {
      recycle(bytes);
      throw e;
    }
    return new StripeWindow(bytes, start, end, this::recycle);
  }

  /**
   * An array for a window of {@code bytes}: a stream reuses its windows' arrays (at most two are
   * in use, the current window and the one read ahead) rather than allocating and zeroing one per
   * window.
   */
  private byte[] windowArray(int bytes) {
    synchronized (spare) {
      for (int i = 0; i < spare.size(); i++) {
        if (spare.get(i).length >= bytes) {
          return spare.remove(i);
        }
      }
    }
    return new byte[Math.max(bytes, (int) Math.min(size, maxWindowBytes()))];
  }

  private long maxWindowBytes() {
    return (long) windowStripes * geometry.k() * geometry.cellSize();
  }

  private void recycle(byte[] bytes) {
    synchronized (spare) {
      if (spare.size() < 2) {
        spare.add(bytes);
      }
    }
  }

  private static <T> T await(Future<T> f) throws IOException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw IoErrors.asIOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading ahead", e);
    }
  }

  /** Waits for {@code f} to end, whatever its outcome (its reads end within their timeouts). */
  private static void awaitQuietly(Future<?> f) {
    try {
      f.get();
    } catch (ExecutionException ignored) {
      // its failure is not this read's
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Gives a read-ahead's buffers back once it finishes, without waiting for it here. */
  private void releaseLater(Future<StripeWindow> pending) {
    context.readAhead().submit(() -> {
      try {
        await(pending).close();
      } catch (IOException ignored) {
        // nothing to give back
      }
      return null;
    });
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (current != null) {
      current.close();
    }
    if (ahead != null) {
      releaseLater(ahead);
      ahead = null;
    }
    if (fallback != null) {
      fallback.close();
    }
  }
}
