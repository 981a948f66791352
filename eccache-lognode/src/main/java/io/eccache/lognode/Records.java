package io.eccache.lognode;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The one record format of the log and of the reserved areas (big-endian):
 *
 * <pre>
 * offset size
 *  0      4   magic 0x4C4E5243 ("LNRC")
 *  4      1   type: 1 BASE, 2 DELTA, 3 DROP
 *  5      3   zero
 *  8      8   stripe id
 * 16      8   from version (BASE: its version; DELTA: the first version it brings; DROP: 0)
 * 24      8   to version   (BASE: its version; DELTA: the last version it brings; DROP: 0)
 * 32      4   byte offset of the payload within the unit
 * 36      4   payload length n
 * 40      4   CRC32C of bytes 0..39 and of the payload
 * 44      n   payload: the parity (BASE) or the parity delta (DELTA)
 * </pre>
 *
 * A record that fails its checksum, or whose magic is wrong, ends the sequence it is in: it is a torn
 * write from a crash (or damage), and what follows it was never acknowledged as flushed. A zero magic
 * is the clean end of a preallocated reserved area.
 */
final class Records {
  static final int HEADER = 44;
  static final int MAGIC = 0x4C4E5243;
  static final byte BASE = 1;
  static final byte DELTA = 2;
  static final byte DROP = 3;

  private Records() {}

  /** The size of the record of {@code part}. */
  static int size(Part part) {
    return HEADER + part.length;
  }

  /** Writes the record of an in-memory part of {@code stripe} at {@code out}'s position. */
  static void put(ByteBuffer out, long stripe, Part part) {
    put(out, part.isBase() ? BASE : DELTA, stripe, part.fromVersion, part.toVersion, part.offset, part.bytes);
  }

  /** Writes a DROP record of {@code stripe} at {@code out}'s position. */
  static void putDrop(ByteBuffer out, long stripe) {
    put(out, DROP, stripe, 0, 0, 0, new byte[0]);
  }

  /** The record of an in-memory part, on its own. */
  static byte[] encode(long stripe, Part part) {
    ByteBuffer out = ByteBuffer.allocate(size(part));
    put(out, stripe, part);
    return out.array();
  }

  private static void put(ByteBuffer out, byte type, long stripe, long from, long to, int offset, byte[] payload) {
    int start = out.position();
    out.putInt(MAGIC).put(type).put((byte) 0).put((byte) 0).put((byte) 0).putLong(stripe).putLong(from)
        .putLong(to).putInt(offset).putInt(payload.length);
    CRC32C crc = new CRC32C();
    crc.update(out.array(), out.arrayOffset() + start, HEADER - 4);
    crc.update(payload, 0, payload.length);
    out.putInt((int) crc.getValue()).put(payload);
  }

  /** Whether {@code buf} holds no record at {@code pos}: the end of the bytes, or a zero magic. */
  static boolean cleanEnd(byte[] buf, int pos, int limit) {
    return limit - pos < 4 || ByteBuffer.wrap(buf, pos, 4).getInt() == 0;
  }

  /**
   * The record at {@code pos} in {@code buf[..limit)}, or {@code null} if there is no valid one there
   * (torn, damaged or not a record).
   */
  static Record decode(byte[] buf, int pos, int limit) {
    if (pos < 0 || limit - pos < HEADER) {
      return null;
    }
    ByteBuffer in = ByteBuffer.wrap(buf, pos, limit - pos);
    if (in.getInt() != MAGIC) {
      return null;
    }
    byte type = in.get();
    in.position(in.position() + 3);
    long stripe = in.getLong();
    long from = in.getLong();
    long to = in.getLong();
    int offset = in.getInt();
    int length = in.getInt();
    int stored = in.getInt();
    if (type < BASE || type > DROP || length < 0 || offset < 0 || length > limit - pos - HEADER) {
      return null;
    }
    CRC32C crc = new CRC32C();
    crc.update(buf, pos, HEADER - 4);
    crc.update(buf, pos + HEADER, length);
    if ((int) crc.getValue() != stored) {
      return null;
    }
    byte[] payload = new byte[length];
    System.arraycopy(buf, pos + HEADER, payload, 0, length);
    return new Record(type, stripe, from, to, offset, payload);
  }

  /** A decoded record. */
  static final class Record {
    final byte type;
    final long stripe;
    final long fromVersion;
    final long toVersion;
    final int offset;
    final byte[] payload;

    Record(byte type, long stripe, long fromVersion, long toVersion, int offset, byte[] payload) {
      this.type = type;
      this.stripe = stripe;
      this.fromVersion = fromVersion;
      this.toVersion = toVersion;
      this.offset = offset;
      this.payload = payload;
    }

    int size() {
      return HEADER + payload.length;
    }

    /** Whether this is the record of {@code part} of {@code stripeId} (same type, stripe, versions, range). */
    boolean describes(long stripeId, Part part) {
      return stripe == stripeId && type == (part.isBase() ? BASE : DELTA) && fromVersion == part.fromVersion
          && toVersion == part.toVersion && offset == part.offset && payload.length == part.length;
    }

    @Override
    public String toString() {
      return "Record{type " + type + ", stripe " + stripe + ", v" + fromVersion + ".." + toVersion + ", ["
          + offset + "+" + payload.length + ")}";
    }
  }
}
