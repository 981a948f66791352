package io.eccache.lognode;

import io.eccache.isal.CodeMatrix;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.IsalLibrary;
import io.eccache.isal.ReedSolomon;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Shared test helpers: small configurations, data, and the reference parity (a fresh encode). */
final class Fixture {
  static final int K = 4;
  static final int R = 3;
  static final int UNIT = 64;

  private Fixture() {}

  /** (4, 3), row 1, 64-byte units, no fsync, a 64 KiB buffer: override what a test needs. */
  static LogNodeConfig.Builder config(Path dir, LogScheme scheme) {
    return LogNodeConfig.builder().directory(dir).code(K, R).row(1).unitSize(UNIT).scheme(scheme).fsync(false)
        .bufferBytes(64 << 10);
  }

  /** The implementations to run with: Java always, native where the library loads. */
  static List<ReedSolomon.Implementation> implementations() {
    List<ReedSolomon.Implementation> all = new ArrayList<>();
    all.add(ReedSolomon.Implementation.JAVA);
    if (IsalLibrary.isAvailable()) {
      all.add(ReedSolomon.Implementation.NATIVE);
    }
    return all;
  }

  static byte[][] randomData(Random random, int k, int unit) {
    byte[][] data = new byte[k][unit];
    for (byte[] d : data) {
      random.nextBytes(d);
    }
    return data;
  }

  static byte[][] copy(byte[][] data) {
    byte[][] copy = new byte[data.length][];
    for (int i = 0; i < data.length; i++) {
      copy[i] = data[i].clone();
    }
    return copy;
  }

  /**
   * Parity row {@code row} of {@code data}, by a fresh encode with the reference coder (Java, so the
   * reference does not share code with a native node under test).
   */
  static byte[] parity(byte[][] data, int r, int row) {
    int k = data.length;
    ErasureCoder coder = ReedSolomon.coder(k, r, CodeMatrix.XOR_FIRST_CAUCHY, ReedSolomon.Implementation.JAVA);
    ByteBuffer[] in = new ByteBuffer[k];
    for (int i = 0; i < k; i++) {
      in[i] = ByteBuffer.wrap(data[i]);
    }
    ByteBuffer[] out = new ByteBuffer[r];
    for (int i = 0; i < r; i++) {
      out[i] = ByteBuffer.allocate(data[0].length);
    }
    coder.encode(in, out);
    return out[row].array();
  }

  /** old XOR new over {@code [offset, offset + length)}. */
  static ByteBuffer delta(byte[] old, byte[] updated, int offset, int length) {
    byte[] d = new byte[length];
    for (int i = 0; i < length; i++) {
      d[i] = (byte) (old[offset + i] ^ updated[offset + i]);
    }
    return ByteBuffer.wrap(d);
  }

  /** A clock tests move by hand. */
  static final class TestClock extends Clock {
    private volatile Instant now = Instant.parse("2024-01-01T00:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  /**
   * One stripe as the coordinator sees it: its data at every committed version, so any version's
   * parity can be computed, and an update helper that feeds a node.
   */
  static final class Stripe {
    final long id;
    final int r;
    final int row;
    final List<byte[][]> versions = new ArrayList<>();

    Stripe(long id, byte[][] data, int r, int row) {
      this.id = id;
      this.r = r;
      this.row = row;
      versions.add(data);
    }

    long version() {
      return versions.size() - 1;
    }

    byte[][] data(long version) {
      return versions.get((int) version);
    }

    byte[] parity(long version) {
      return Fixture.parity(data(version), r, row);
    }

    void putBase(LogNode node) {
      node.putBase(id, row, version(), ByteBuffer.wrap(parity(version())));
    }

    /**
     * Appends an update of unit {@code unit} over {@code [offset, offset + length)} to random bytes and
     * returns the data it would commit (not yet recorded).
     */
    byte[][] append(LogNode node, Random random, long updateId, int unit, int offset, int length) {
      byte[][] next = copy(data(version()));
      byte[] fresh = new byte[length];
      random.nextBytes(fresh);
      System.arraycopy(fresh, 0, next[unit], offset, length);
      node.appendDelta(id, updateId, version(), unit, offset, delta(data(version())[unit], next[unit], offset, length));
      return next;
    }

    /** Appends and commits one random update in one go; returns the new version. */
    long update(LogNode node, Random random, long updateId) {
      int unitSize = data(0)[0].length;
      int offset = random.nextInt(unitSize);
      return update(node, random, updateId, random.nextInt(data(0).length), offset,
          1 + random.nextInt(unitSize - offset));
    }

    /** Appends and commits an update of the given range in one go; returns the new version. */
    long update(LogNode node, Random random, long updateId, int unit, int offset, int length) {
      byte[][] next = append(node, random, updateId, unit, offset, length);
      versions.add(next);
      node.commit(id, updateId, version());
      return version();
    }
  }
}
