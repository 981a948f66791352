package io.eccache.lognode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sequential log (PL, PLM): numbered segment files {@code log/<20-digit seq>.log} of
 * {@link Records}, appended to one flush at a time. Segments roll over past the configured size; a node
 * that opens never appends to a segment that existed before (it may end in a torn record), and after a
 * failed write the next flush starts a new segment for the same reason.
 *
 * <p>Appends, seals and deletes are called by the node's single disk writer; reads come from any thread
 * (they read only ranges already written).
 */
final class LogSegments implements AutoCloseable {
  private static final String SUFFIX = ".log";

  private final Path dir;
  private final long segmentBytes;
  private final boolean fsync;
  private final DiskCounters counters;
  /** Every segment on disk and its size. */
  private final ConcurrentSkipListMap<Long, Long> sizes = new ConcurrentSkipListMap<>();
  private final AtomicLong totalBytes = new AtomicLong();
  private long activeSeq = 1;
  private FileChannel active;

  LogSegments(Path dir, long segmentBytes, boolean fsync, DiskCounters counters) {
    this.dir = dir;
    this.segmentBytes = segmentBytes;
    this.fsync = fsync;
    this.counters = counters;
  }

  Path path(long seq) {
    return dir.resolve(String.format("%020d", seq) + SUFFIX);
  }

  /** Finds the segments on disk, oldest first; appends will go to a new one after them. */
  List<Long> recoverList() throws IOException {
    Files.createDirectories(dir);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        try {
          long seq = Long.parseLong(name.substring(0, name.length() - SUFFIX.length()));
          long size = Files.size(file);
          sizes.put(seq, size);
          totalBytes.addAndGet(size);
        } catch (NumberFormatException e) {
          // Not ours; leave it alone.
        }
      }
    }
    activeSeq = sizes.isEmpty() ? 1 : sizes.lastKey() + 1;
    return new ArrayList<>(sizes.keySet());
  }

  /**
   * Appends {@code bytes} with one sequential write.
   *
   * @return the segment and the position the bytes start at
   */
  long[] append(byte[] bytes, DiskStats.Purpose purpose) throws IOException {
    Long size = sizes.get(activeSeq);
    if (size != null && size >= segmentBytes) {
      roll();
      size = null;
    }
    long position = size == null ? 0 : size;
    try {
      if (active == null) {
        active = FileChannel.open(path(activeSeq), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        if (fsync) {
          Fsync.directory(dir);
        }
      }
      StripeFiles.writeFully(active, ByteBuffer.wrap(bytes), position);
      if (fsync) {
        active.force(false);
      }
    } catch (IOException e) {
      // The segment may now end in a partial record: never write after it.
      roll();
      throw e;
    }
    sizes.put(activeSeq, position + bytes.length);
    totalBytes.addAndGet(bytes.length);
    counters.count(purpose, DiskStats.Access.SEQUENTIAL_WRITE, bytes.length);
    return new long[] {activeSeq, position};
  }

  /** Closes the active segment so the next append starts a new one; returns every segment before that. */
  List<Long> seal() throws IOException {
    roll();
    return new ArrayList<>(sizes.headMap(activeSeq).keySet());
  }

  private void roll() throws IOException {
    FileChannel old = active;
    active = null;
    activeSeq++;
    if (old != null) {
      old.close();
    }
  }

  /** Reads a whole segment front to back: one sequential read. */
  byte[] readAll(long seq, DiskStats.Purpose purpose) throws IOException {
    byte[] bytes = Files.readAllBytes(path(seq));
    counters.count(purpose, DiskStats.Access.SEQUENTIAL_READ, bytes.length);
    return bytes;
  }

  /** Reads one record's range: one random read. */
  byte[] read(long seq, long position, int length, DiskStats.Purpose purpose) throws IOException {
    byte[] bytes = new byte[length];
    try (FileChannel channel = FileChannel.open(path(seq), StandardOpenOption.READ)) {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      while (in.hasRemaining()) {
        if (channel.read(in, position + in.position()) < 0) {
          throw new IOException(path(seq) + " ends before " + (position + length));
        }
      }
    }
    counters.count(purpose, DiskStats.Access.RANDOM_READ, length);
    return bytes;
  }

  /** Deletes segments, oldest first, so a crash part-way never leaves a newer one without its elders. */
  void delete(List<Long> seqs) throws IOException {
    List<Long> sorted = new ArrayList<>(seqs);
    sorted.sort(null);
    for (long seq : sorted) {
      Files.deleteIfExists(path(seq));
      Long size = sizes.remove(seq);
      if (size != null) {
        totalBytes.addAndGet(-size);
      }
    }
    if (fsync && !sorted.isEmpty()) {
      Fsync.directory(dir);
    }
  }

  /** Bytes in every segment on disk. */
  long totalBytes() {
    return totalBytes.get();
  }

  @Override
  public void close() throws IOException {
    if (active != null) {
      active.close();
      active = null;
    }
  }
}
