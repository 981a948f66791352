package io.eccache.isal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the native and the Java coder share: argument checking, the choice of survivors, and a cache
 * of decode plans per erasure pattern (building one inverts a k x k matrix, which at small units costs
 * more than the decoding itself). Subclasses only compile coefficient rows into a plan and apply it.
 *
 * @param <P> the subclass's compiled form of a coefficient matrix; immutable once built
 */
abstract class AbstractReedSolomonCoder<P> implements ErasureCoder {
  /**
   * Decode plans kept, least recently used first out. A plan is 32 x k x erased bytes (352 KB at
   * k = 200 with 55 erased), so this keeps the cache within tens of MB at the widest codes; a
   * workload cycles through few patterns (which splits arrived first), and a miss only costs a
   * k x k inversion. Plans are plain (garbage-collected) buffers: dropping one frees it.
   */
  static final int MAX_CACHED_DECODE_PLANS = 64;

  private final CauchyCode code;
  private final int k;
  private final int r;
  private final P encodePlan;
  /** Access-ordered, guarded by itself. */
  private final LinkedHashMap<ErasurePattern, P> decodePlans =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<ErasurePattern, P> eldest) {
          return size() > MAX_CACHED_DECODE_PLANS;
        }
      };

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
    checkUnits(data, null, "data", len, false);
    checkUnits(parity, null, "parity", len, true);
    checkNoOverlap(data, "data", parity, "parity", len);
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
    checkUnits(inputs, survivors, "units", len, false);
    checkUnits(outputs, null, "outputs", len, true);
    checkNoOverlap(units, "units", outputs, "outputs", len);
    if (len == 0 || erased.length == 0) {
      return;
    }
    apply(decodePlan(survivors, erased), inputs, outputs, len);
  }

  private P decodePlan(int[] survivors, int[] erased) {
    ErasurePattern pattern = new ErasurePattern(survivors, erased);
    P plan;
    synchronized (decodePlans) {
      plan = decodePlans.get(pattern);
    }
    if (plan == null) {
      // Built outside the lock (an inversion); two threads may build the same plan, one is kept.
      plan = compile(code.decodeRows(survivors, erased), erased.length);
      synchronized (decodePlans) {
        P raced = decodePlans.putIfAbsent(pattern, plan);
        plan = raced != null ? raced : plan;
      }
    }
    return plan;
  }

  /** How many decode plans are cached; for tests. */
  final int cachedDecodePlans() {
    synchronized (decodePlans) {
      return decodePlans.size();
    }
  }

  /**
   * Refuses an output that shares memory with an input or with another output: the native coder
   * reads its inputs while it writes its outputs, so such a call would write wrong parity silently
   * (and the Java twin, which buffers, would disagree with it). Heap units share memory when they
   * are views of one array with overlapping ranges; direct ones when their addresses overlap (known
   * only where {@link DirectAddresses} works: only the native coder needs that). Null units (erased)
   * and units without an accessible array (ignored survivors) are skipped.
   */
  private static void checkNoOverlap(ByteBuffer[] inputs, String inName, ByteBuffer[] outputs,
      String outName, int len) {
    if (len == 0) {
      return;
    }
    for (int o = 0; o < outputs.length; o++) {
      for (int p = 0; p < o; p++) {
        if (overlap(outputs[o], outputs[p], len)) {
          throw new IllegalArgumentException(outName + "[" + o + "] and " + outName + "[" + p
              + "] share memory: every output must be a buffer of its own");
        }
      }
    }
    for (int i = 0; i < inputs.length; i++) {
      if (inputs[i] == null) {
        continue;
      }
      for (int o = 0; o < outputs.length; o++) {
        if (overlap(inputs[i], outputs[o], len)) {
          throw new IllegalArgumentException(outName + "[" + o + "] shares memory with " + inName
              + "[" + i + "]: an output must not overlap any input"
              + (inputs[i].isDirect() ? "" : " (the same array, overlapping ranges)"));
        }
      }
    }
  }

  /** Whether len bytes from a's position and len bytes from b's position are partly the same. */
  private static boolean overlap(ByteBuffer a, ByteBuffer b, int len) {
    if (a.isDirect() != b.isDirect()) {
      return false;
    }
    if (a.isDirect()) {
      return DirectAddresses.AVAILABLE && overlap(DirectAddresses.of(a) + a.position(),
          DirectAddresses.of(b) + b.position(), len);
    }
    return a.hasArray() && b.hasArray() && a.array() == b.array()
        && overlap(a.arrayOffset() + a.position(), b.arrayOffset() + b.position(), len);
  }

  private static boolean overlap(long a, long b, int len) {
    return a < b + len && b < a + len;
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

  /** {@code indices}: the index each buffer is named by in messages, or null for its own. */
  private static void checkUnits(ByteBuffer[] buffers, int[] indices, String name, int len,
      boolean written) {
    for (int at = 0; at < buffers.length; at++) {
      ByteBuffer b = buffers[at];
      int i = indices == null ? at : indices[at];
      if (b == null) {
        throw new IllegalArgumentException(name + "[" + i + "] is null");
      }
      if (!b.isDirect() && !b.hasArray()) {
        // A read-only heap buffer hides its array; the native coder reads heap units through it.
        throw new IllegalArgumentException(name + "[" + i + "] is a read-only heap buffer; the"
            + " coder takes heap buffers with an accessible array (ByteBuffer.wrap or allocate) or"
            + " direct buffers");
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
