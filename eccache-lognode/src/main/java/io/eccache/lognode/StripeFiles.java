package io.eccache.lognode;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The reserved spaces (PLR, PLR-m, PLM): one file per stripe, {@code stripes/<id>.par}, holding the
 * base parity and, after it, a preallocated area that deltas are appended to as {@link Records}:
 *
 * <pre>
 * offset        size      field
 *  0             8        magic "LNSTRIPE"
 *  8             8        stripe id
 * 16             4        parity row
 * 20             4        unit size
 * 24             8        base version
 * 32             4        reserved area bytes
 * 36             4        CRC32C of bytes 0..35 and of the base
 * 40             unit     base parity
 * 40 + unit      reserved delta records back to back, zeros after the last
 * </pre>
 *
 * A new base always goes to a new file ({@code <id>.par.tmp}, then renamed over the old one), so a
 * crash leaves either the old file or the new one, never a torn base; the area is sized with
 * {@code setLength} (sparse where the filesystem allows, unlike the paper's {@code dd}, and not counted
 * as I/O) so a fresh area reads as zeros, which ends its record sequence. Deltas are appended in place;
 * a torn one fails its checksum and ends the sequence.
 */
final class StripeFiles {
  static final int HEADER = 40;
  private static final long MAGIC = 0x4C4E535452495045L;
  private static final String SUFFIX = ".par";
  private static final String TMP_SUFFIX = ".par.tmp";

  private final Path dir;
  private final int row;
  private final int unitSize;
  private final int reservedBytes;
  private final boolean fsync;
  private final DiskCounters counters;

  StripeFiles(Path dir, int row, int unitSize, int reservedBytes, boolean fsync, DiskCounters counters) {
    this.dir = dir;
    this.row = row;
    this.unitSize = unitSize;
    this.reservedBytes = reservedBytes;
    this.fsync = fsync;
    this.counters = counters;
  }

  void createDirectory() throws IOException {
    Files.createDirectories(dir);
  }

  Path path(long stripe) {
    return dir.resolve(stripe + SUFFIX);
  }

  Path tmpPath(long stripe) {
    return dir.resolve(stripe + TMP_SUFFIX);
  }

  /** Where the reserved area starts in a file. */
  int areaStart() {
    return HEADER + unitSize;
  }

  int reservedBytes() {
    return reservedBytes;
  }

  /** The part for a file's header and base at {@code version}. */
  Part basePart(long version) {
    return Part.onDisk(Part.Kind.BASE, version, version, 0, unitSize, DiskRef.file(0, areaStart()));
  }

  /**
   * Writes a complete new stripe file at {@code target} (normally the tmp path): one random write of the
   * header and base, then preallocation of the area.
   */
  void writeNew(Path target, long stripe, long version, byte[] base, DiskStats.Purpose purpose) throws IOException {
    ByteBuffer out = ByteBuffer.allocate(areaStart());
    out.putLong(MAGIC).putLong(stripe).putInt(row).putInt(unitSize).putLong(version).putInt(reservedBytes);
    CRC32C crc = new CRC32C();
    crc.update(out.array(), 0, HEADER - 4);
    crc.update(base, 0, unitSize);
    out.putInt((int) crc.getValue()).put(base).flip();
    try (RandomAccessFile file = new RandomAccessFile(target.toFile(), "rw")) {
      file.setLength(0);
      writeFully(file.getChannel(), out, 0);
      // Preallocate: the area reads as zeros until deltas land in it.
      file.setLength((long) areaStart() + reservedBytes);
      if (fsync) {
        file.getChannel().force(true);
      }
    }
    counters.count(purpose, DiskStats.Access.RANDOM_WRITE, areaStart());
  }

  /** Renames a written tmp file over the stripe's file, atomically. */
  void install(long stripe) throws IOException {
    try {
      Files.move(tmpPath(stripe), path(stripe), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the log node's directory must support atomic renames: " + dir, e);
    }
    if (fsync) {
      Fsync.directory(dir);
    }
  }

  /**
   * Appends one record to the area of {@code file} at {@code areaUsed} bytes into it: one random write.
   *
   * @throws NoSuchFileException if the file is gone (its stripe was dropped)
   */
  DiskRef append(Path file, int areaUsed, byte[] record, DiskStats.Purpose purpose) throws IOException {
    long position = (long) areaStart() + areaUsed;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      writeFully(channel, ByteBuffer.wrap(record), position);
      if (fsync) {
        channel.force(false);
      }
    }
    counters.count(purpose, DiskStats.Access.RANDOM_WRITE, record.length);
    return DiskRef.file(position, record.length);
  }

  /** Reads {@code length} bytes from the start of {@code file}: one random read. */
  byte[] read(Path file, int length, DiskStats.Purpose purpose) throws IOException {
    byte[] bytes = new byte[length];
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      while (in.hasRemaining()) {
        if (channel.read(in, in.position()) < 0) {
          throw new IOException(file + " ends at " + in.position() + ", expected " + length + " bytes");
        }
      }
    }
    counters.count(purpose, DiskStats.Access.RANDOM_READ, length);
    return bytes;
  }

  /** Reads a whole file (recovery): one random read. */
  byte[] readAll(Path file, DiskStats.Purpose purpose) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    counters.count(purpose, DiskStats.Access.RANDOM_READ, bytes.length);
    return bytes;
  }

  /**
   * The base in a file's first bytes, checked: magic, stripe, row, unit size and checksum.
   *
   * @return the base parity, or {@code null} if the header is not this stripe's or is damaged
   */
  byte[] parseBase(byte[] file, long stripe, long expectedVersion) {
    if (file.length < areaStart()) {
      return null;
    }
    ByteBuffer in = ByteBuffer.wrap(file);
    if (in.getLong() != MAGIC || in.getLong() != stripe || in.getInt() != row || in.getInt() != unitSize) {
      return null;
    }
    long version = in.getLong();
    in.getInt();
    int stored = in.getInt();
    CRC32C crc = new CRC32C();
    crc.update(file, 0, HEADER - 4);
    crc.update(file, HEADER, unitSize);
    if ((int) crc.getValue() != stored || (expectedVersion >= 0 && version != expectedVersion)) {
      return null;
    }
    byte[] base = new byte[unitSize];
    System.arraycopy(file, HEADER, base, 0, unitSize);
    return base;
  }

  /** The base version in a file's header (read before {@link #parseBase}, which checks it). */
  static long headerVersion(byte[] file) {
    return file.length < 32 ? -1 : ByteBuffer.wrap(file, 24, 8).getLong();
  }

  void delete(long stripe) throws IOException {
    Files.deleteIfExists(path(stripe));
    Files.deleteIfExists(tmpPath(stripe));
  }

  /** Stripe ids with a file, after removing tmp files a crash left behind. */
  List<Long> recoverList(List<String> damage) throws IOException {
    List<Long> ids = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return ids;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (name.endsWith(TMP_SUFFIX)) {
          Files.delete(file);
        } else if (name.endsWith(SUFFIX)) {
          try {
            ids.add(Long.parseLong(name.substring(0, name.length() - SUFFIX.length())));
          } catch (NumberFormatException e) {
            damage.add("not a stripe file, ignored: " + file);
          }
        }
      }
    }
    ids.sort(null);
    return ids;
  }

  static void writeFully(FileChannel channel, ByteBuffer bytes, long position) throws IOException {
    long at = position;
    while (bytes.hasRemaining()) {
      at += channel.write(bytes, at);
    }
  }
}
