package io.eccache.isal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the native and the Java coder share: argument checking ({@link UnitChecks}), the choice of
 * survivors, and a cache of decode plans per erasure pattern (building one inverts a k x k matrix,
 * which at small units costs more than the decoding itself), which also holds the plans of parity
 * updates for subsets of the parity rows. Subclasses only compile coefficient rows into a plan and
 * apply it, to all k data units or to one unit's change.
 *
 * @param <P> the subclass's compiled form of a coefficient matrix; immutable once built
 */
abstract class AbstractReedSolomonCoder<P> implements ErasureCoder {
  /**
   * Decode plans (and plans of parity updates for a subset of the parity rows) kept, least recently
   * used first out. A plan is 32 x k x erased bytes (352 KB at k = 200 with 55 erased), so this keeps
   * the cache within tens of MB at the widest codes; a workload cycles through few patterns (which
   * splits arrived first, which parity rows a node holds), and a miss only costs a k x k inversion.
   * Plans are plain (garbage-collected) buffers: dropping one frees it.
   */
  static final int MAX_CACHED_DECODE_PLANS = 64;

  private final CauchyCode code;
  private final CodeMatrix matrix;
  private final int k;
  private final int r;
  private final P encodePlan;
  /** 0..r-1: the parity rows of {@link #encodeDelta(int, ByteBuffer, ByteBuffer[])}. */
  private final int[] allParityRows;
  /** 0..k-1: the survivors of the cached plans of parity updates. Never written. */
  private final int[] dataUnits;
  /** Access-ordered, guarded by itself. */
  private final LinkedHashMap<ErasurePattern, P> decodePlans =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<ErasurePattern, P> eldest) {
          return size() > MAX_CACHED_DECODE_PLANS;
        }
      };

  AbstractReedSolomonCoder(int k, int r, CodeMatrix matrix) {
    if (matrix == null) {
      throw new IllegalArgumentException("matrix must not be null");
    }
    this.code = new CauchyCode(k, r, matrix);
    this.matrix = matrix;
    this.k = k;
    this.r = r;
    this.encodePlan = compile(code.parityRows(), r);
    this.allParityRows = ascending(r);
    this.dataUnits = ascending(k);
  }

  /**
   * Compiles a {@code rows x k} row-major coefficient matrix. Called from the constructor: it must not
   * read subclass fields.
   */
  abstract P compile(byte[] coefficients, int rows);

  /** Computes outputs[i] = sum over j of coefficient(i, j) x inputs[j], for len bytes; all checked. */
  abstract void apply(P plan, ByteBuffer[] inputs, ByteBuffer[] outputs, int len);

  /**
   * Computes outputs[i] ^= coefficient(i, dataIndex) x delta for len bytes, or outputs[i] =
   * coefficient(i, dataIndex) x delta when {@code overwrite}; all checked, len > 0.
   */
  abstract void applyDelta(P plan, int dataIndex, ByteBuffer delta, ByteBuffer[] outputs, int len,
      boolean overwrite);

  @Override
  public final int dataUnits() {
    return k;
  }

  @Override
  public final int parityUnits() {
    return r;
  }

  @Override
  public final CodeMatrix codeMatrix() {
    return matrix;
  }

  @Override
  public final void encode(ByteBuffer[] data, ByteBuffer[] parity) {
    UnitChecks.checkCount(data, "data", k);
    UnitChecks.checkCount(parity, "parity", r);
    int len = UnitChecks.unitLength(data, "data");
    UnitChecks.checkUnits(data, null, "data", len, false);
    UnitChecks.checkUnits(parity, null, "parity", len, true);
    UnitChecks.checkNoOverlap(data, "data", parity, "parity", len);
    if (len > 0) {
      apply(encodePlan, data, parity, len);
    }
  }

  @Override
  public final void decode(ByteBuffer[] units, int[] erased, ByteBuffer[] outputs) {
    UnitChecks.checkCount(units, "units", k + r);
    if (erased == null) {
      throw new IllegalArgumentException("erased must not be null");
    }
    UnitChecks.checkCount(outputs, "outputs", erased.length);
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
    UnitChecks.checkUnits(inputs, survivors, "units", len, false);
    UnitChecks.checkUnits(outputs, null, "outputs", len, true);
    UnitChecks.checkNoOverlap(units, "units", outputs, "outputs", len);
    if (len == 0 || erased.length == 0) {
      return;
    }
    apply(cachedPlan(survivors, erased,
        () -> compile(code.decodeRows(survivors, erased), erased.length)), inputs, outputs, len);
  }

  @Override
  public final void encodeDelta(int dataIndex, ByteBuffer delta, ByteBuffer[] parity) {
    update(dataIndex, delta, allParityRows, parity, "parity", false);
  }

  @Override
  public final void encodeDelta(int dataIndex, ByteBuffer delta, int[] parityRows,
      ByteBuffer[] parity) {
    update(dataIndex, delta, parityRows, parity, "parity", false);
  }

  @Override
  public final void parityDelta(int dataIndex, ByteBuffer delta, int[] parityRows,
      ByteBuffer[] outputs) {
    update(dataIndex, delta, parityRows, outputs, "outputs", true);
  }

  /** encodeDelta ({@code overwrite} false) and parityDelta (true): checks, then applies. */
  private void update(int dataIndex, ByteBuffer delta, int[] parityRows, ByteBuffer[] outputs,
      String outName, boolean overwrite) {
    if (dataIndex < 0 || dataIndex >= k) {
      throw new IllegalArgumentException("data unit " + dataIndex
          + " is out of range: data units are 0.." + (k - 1) + " for " + this);
    }
    if (parityRows == null) {
      throw new IllegalArgumentException("parityRows must not be null");
    }
    // A copy: the plan is cached under these rows, a caller changing them meanwhile must not matter.
    int[] rows = parityRows.clone();
    UnitChecks.checkCount(outputs, outName, rows.length);
    boolean[] seen = new boolean[r];
    for (int row : rows) {
      if (row < 0 || row >= r) {
        throw new IllegalArgumentException("parity row " + row + " is out of range: parity rows"
            + " are 0.." + (r - 1) + " (row i is unit k + i) for " + this);
      }
      if (seen[row]) {
        throw new IllegalArgumentException("parity row " + row + " is listed twice");
      }
      seen[row] = true;
    }
    if (delta == null) {
      throw new IllegalArgumentException("delta must not be null");
    }
    int len = delta.remaining();
    UnitChecks.checkUnit(delta, "delta", len, false);
    UnitChecks.checkUnits(outputs, null, outName, len, true);
    UnitChecks.checkOutputsDisjoint(outputs, outName, len);
    UnitChecks.checkNoOverlap(delta, "delta", outputs, outName, len);
    if (len == 0 || rows.length == 0) {
      return;
    }
    applyDelta(deltaPlan(rows), dataIndex, delta, outputs, len, overwrite);
  }

  /**
   * The plan of parity rows {@code parityRows}, in that order: the encode plan for all rows in order,
   * else the plan that rebuilds parity units {@code k + row} from the k data units (the same
   * coefficients, so the same cache key as that decode), built without an inversion.
   */
  private P deltaPlan(int[] parityRows) {
    if (Arrays.equals(parityRows, allParityRows)) {
      return encodePlan;
    }
    int[] units = new int[parityRows.length];
    for (int i = 0; i < units.length; i++) {
      units[i] = k + parityRows[i];
    }
    return cachedPlan(dataUnits, units,
        () -> compile(code.parityRows(parityRows), parityRows.length));
  }

  private P cachedPlan(int[] survivors, int[] wanted, Supplier<P> build) {
    ErasurePattern pattern = new ErasurePattern(survivors, wanted);
    P plan;
    synchronized (decodePlans) {
      plan = decodePlans.get(pattern);
    }
    if (plan == null) {
      // Built outside the lock (a decode plan inverts a matrix); two threads may build the same
      // plan, one is kept.
      plan = build.get();
      synchronized (decodePlans) {
        P raced = decodePlans.putIfAbsent(pattern, plan);
        plan = raced != null ? raced : plan;
      }
    }
    return plan;
  }

  /** How many plans (decode, and update of a subset of the parity rows) are cached; for tests. */
  final int cachedDecodePlans() {
    synchronized (decodePlans) {
      return decodePlans.size();
    }
  }

  /** 0, 1, ..., n - 1. */
  private static int[] ascending(int n) {
    int[] values = new int[n];
    Arrays.setAll(values, i -> i);
    return values;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(k=" + k + ", r=" + r
        + (matrix == CodeMatrix.CAUCHY ? "" : ", " + matrix) + ")";
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
