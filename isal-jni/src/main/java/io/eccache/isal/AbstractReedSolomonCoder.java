package io.eccache.isal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the native and the Java coder share: argument checking, the choice of survivors, and a cache
 * of decode plans per erasure pattern (building one inverts a k x k matrix, which at small units costs
 * more than the decoding itself). Subclasses only compile coefficient rows into a plan and apply it.
 *
 * @param <P> the subclass's compiled form of a coefficient matrix; immutable once built
 */
abstract class AbstractReedSolomonCoder<P> implements ErasureCoder {
  /** Past this many cached patterns new plans are still built, but not kept. */
  static final int MAX_CACHED_DECODE_PLANS = 1024;

  private final CauchyCode code;
  private final int k;
  private final int r;
  private final P encodePlan;
  private final ConcurrentHashMap<ErasurePattern, P> decodePlans = new ConcurrentHashMap<>();

  AbstractReedSolomonCoder(int k, int r) {
    this.code = new CauchyCode(k, r);
    this.k = k;
    this.r = r;
    this.encodePlan = compile(code.parityRows(), r);
  }

  /**
   * Compiles a {@code rows x k} row-major coefficient matrix. Called from the constructor: it must not
   * read subclass fields.
   */
  abstract P compile(byte[] coefficients, int rows);

  /** Computes outputs[i] = sum over j of coefficient(i, j) x inputs[j], for len bytes; all checked. */
  abstract void apply(P plan, ByteBuffer[] inputs, ByteBuffer[] outputs, int len);

  @Override
  public final int dataUnits() {
    return k;
  }

  @Override
  public final int parityUnits() {
    return r;
  }

  @Override
  public final void encode(ByteBuffer[] data, ByteBuffer[] parity) {
    checkCount(data, "data", k);
    checkCount(parity, "parity", r);
    int len = unitLength(data, "data");
    checkUnits(data, "data", len, false);
    checkUnits(parity, "parity", len, true);
    if (len > 0) {
      apply(encodePlan, data, parity, len);
    }
  }

  @Override
  public final void decode(ByteBuffer[] units, int[] erased, ByteBuffer[] outputs) {
    checkCount(units, "units", k + r);
    if (erased == null) {
      throw new IllegalArgumentException("erased must not be null");
    }
    checkCount(outputs, "outputs", erased.length);
    boolean[] wanted = new boolean[k + r];
    for (int unit : erased) {
      if (unit < 0 || unit >= k + r) {
        throw new IllegalArgumentException(
            "erased unit " + unit + " is out of range: units are 0.." + (k + r - 1) + " for " + this);
      }
      if (wanted[unit]) {
        throw new IllegalArgumentException("erased unit " + unit + " is listed twice");
      }
      if (units[unit] != null) {
        throw new IllegalArgumentException("unit " + unit
            + " is both given in units and listed as erased: pass null for the units to rebuild");
      }
      wanted[unit] = true;
    }
    int[] survivors = new int[k];
    int found = 0;
    for (int i = 0; i < k + r && found < k; i++) {
      if (units[i] != null) {
        survivors[found++] = i;
      }
    }
    if (found < k) {
      throw new IllegalArgumentException("only " + found + " of " + (k + r)
          + " units are available; decoding needs at least k = " + k);
    }
    ByteBuffer[] inputs = new ByteBuffer[k];
    for (int i = 0; i < k; i++) {
      inputs[i] = units[survivors[i]];
    }
    int len = inputs[0].remaining();
    checkUnits(inputs, "units", len, false);
    checkUnits(outputs, "outputs", len, true);
    if (len == 0 || erased.length == 0) {
      return;
    }
    apply(decodePlan(survivors, erased), inputs, outputs, len);
  }

  private P decodePlan(int[] survivors, int[] erased) {
    ErasurePattern pattern = new ErasurePattern(survivors, erased);
    P plan = decodePlans.get(pattern);
    if (plan == null) {
      plan = compile(code.decodeRows(survivors, erased), erased.length);
      if (decodePlans.size() < MAX_CACHED_DECODE_PLANS) {
        P raced = decodePlans.putIfAbsent(pattern, plan);
        plan = raced != null ? raced : plan;
      }
    }
    return plan;
  }

  /** How many decode plans are cached; for tests. */
  final int cachedDecodePlans() {
    return decodePlans.size();
  }

  private static void checkCount(ByteBuffer[] buffers, String name, int expected) {
    if (buffers == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    if (buffers.length != expected) {
      throw new IllegalArgumentException(
          name + " has " + buffers.length + " buffers; expected " + expected);
    }
  }

  private static int unitLength(ByteBuffer[] buffers, String name) {
    if (buffers[0] == null) {
      throw new IllegalArgumentException(name + "[0] is null");
    }
    return buffers[0].remaining();
  }

  private static void checkUnits(ByteBuffer[] buffers, String name, int len, boolean written) {
    for (int i = 0; i < buffers.length; i++) {
      ByteBuffer b = buffers[i];
      if (b == null) {
        throw new IllegalArgumentException(name + "[" + i + "] is null");
      }
      if (!b.isDirect()) {
        throw new IllegalArgumentException(name + "[" + i
            + "] is a heap buffer; the coder works on direct buffers (ByteBuffer.allocateDirect)");
      }
      if (written && b.isReadOnly()) {
        throw new IllegalArgumentException(name + "[" + i + "] is read-only but is written to");
      }
      if (b.remaining() != len) {
        throw new IllegalArgumentException(name + "[" + i + "] has " + b.remaining()
            + " bytes remaining; every unit in a call must have the same length (" + len + ")");
      }
    }
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(k=" + k + ", r=" + r + ")";
  }

  /** The key of a cached decode plan: which k units are read and which are rebuilt, in order. */
  private static final class ErasurePattern {
    private final int[] survivors;
    private final int[] erased;
    private final int hash;

    ErasurePattern(int[] survivors, int[] erased) {
      this.survivors = survivors;
      this.erased = erased.clone();
      this.hash = 31 * Arrays.hashCode(survivors) + Arrays.hashCode(erased);
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof ErasurePattern)) {
        return false;
      }
      ErasurePattern other = (ErasurePattern) o;
      return hash == other.hash && Arrays.equals(survivors, other.survivors)
          && Arrays.equals(erased, other.erased);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
