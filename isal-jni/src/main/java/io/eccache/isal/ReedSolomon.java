package io.eccache.isal;

import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where coders come from: one shared {@link ErasureCoder} per (k, r), {@link CodeMatrix} and
 * implementation.
 *
 * <pre>{@code
 * ErasureCoder coder = ReedSolomon.coder(10, 4);
 * coder.encode(data, parity);                 // 10 buffers in, 4 out (direct or heap)
 * coder.decode(units, new int[] {0}, out);    // rebuild unit 0 from any 10 of the 14
 * ErasureCoder packed = ReedSolomon.coder(10, 4, CodeMatrix.XOR_FIRST_CAUCHY); // parity 0 = XOR
 * }</pre>
 *
 * <p>Which implementation {@link #coder(int, int)} uses is set by the system property
 * {@value #CODER_PROPERTY}: {@code auto} (default: native ISA-L when it loads, otherwise the pure-Java
 * twin with one WARN line saying why), {@code native} (fail if ISA-L is not available) or
 * {@code java}. With {@value #REQUIRE_NATIVE_PROPERTY}{@code =true}, {@code auto} fails instead of
 * falling back: builds and benchmarks set it so that they never silently measure the fallback.
 */
public final class ReedSolomon {
  /** System property choosing the implementation: auto, native or java. */
  public static final String CODER_PROPERTY = "eccache.coder";
  /** System property: when true, failing to load the native coder is an error, not a fallback. */
  public static final String REQUIRE_NATIVE_PROPERTY = "eccache.isal.required";
  /** Units in one code at most: GF(2^8) has 255 non-zero elements to build distinct rows from. */
  public static final int MAX_UNITS = 255;

  private static final int CACHE_LINE = 64;

  private static final Logger LOG = LoggerFactory.getLogger(ReedSolomon.class);
  private static final ConcurrentHashMap<Integer, ErasureCoder> CODERS = new ConcurrentHashMap<>();
  /** Resolved on first use, so the choice is logged exactly once. */
  private static volatile Implementation defaultImplementation;

  /** The two implementations; both produce identical bytes. */
  public enum Implementation {
    /** JNI over Intel ISA-L. */
    NATIVE,
    /** Pure Java, table-driven. */
    JAVA
  }

  private ReedSolomon() {}

  /**
   * The shared coder for (k, r) with the {@link CodeMatrix#CAUCHY} matrix in the configured
   * implementation (see the class comment).
   */
  public static ErasureCoder coder(int k, int r) {
    return coder(k, r, CodeMatrix.CAUCHY, defaultImplementation());
  }

  /** The shared coder for (k, r) with the given matrix in the configured implementation. */
  public static ErasureCoder coder(int k, int r, CodeMatrix matrix) {
    return coder(k, r, matrix, defaultImplementation());
  }

  /** The shared coder for (k, r) with the {@link CodeMatrix#CAUCHY} matrix in the given implementation. */
  public static ErasureCoder coder(int k, int r, Implementation implementation) {
    return coder(k, r, CodeMatrix.CAUCHY, implementation);
  }

  /**
   * The shared coder for (k, r) with the given matrix in the given implementation.
   *
   * @throws IllegalArgumentException unless 1 <= k, 1 <= r and k + r <= 255, or if an argument is null
   * @throws IllegalStateException if {@code NATIVE} is asked for but the library did not load
   */
  public static ErasureCoder coder(int k, int r, CodeMatrix matrix, Implementation implementation) {
    checkCode(k, r);
    if (matrix == null || implementation == null) {
      throw new IllegalArgumentException(
          (matrix == null ? "matrix" : "implementation") + " must not be null");
    }
    if (implementation == Implementation.NATIVE && !IsalLibrary.isAvailable()) {
      throw new IllegalStateException(
          "the native ISA-L coder is not available: " + IsalLibrary.loadingFailureReason());
    }
    // k and r are below 256: 8 bits each, then one bit for the matrix and one for the implementation.
    int key = (k << 10) | (r << 2) | (matrix.ordinal() << 1) | implementation.ordinal();
    return CODERS.computeIfAbsent(key, x -> implementation == Implementation.NATIVE
        ? new NativeReedSolomonCoder(k, r, matrix) : new JavaReedSolomonCoder(k, r, matrix));
  }

  /**
   * A direct buffer of {@code capacity} bytes whose first byte is 64-byte aligned (a cache line, an
   * AVX-512 register). ISA-L accepts any address, but units that straddle cache lines code about 15%
   * slower at 1 MiB (measured: 7.6 vs 8.8 GB/s for RS(10,4) encode); plain
   * {@code ByteBuffer.allocateDirect} only aligns to 16 bytes. Allocate pooled units with this.
   */
  public static ByteBuffer allocateAligned(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0, not " + capacity);
    }
    // alignedSlice rounds the start up and the end down to the alignment: pad for both.
    int rounded = (capacity + CACHE_LINE - 1) & -CACHE_LINE;
    ByteBuffer aligned = ByteBuffer.allocateDirect(rounded + CACHE_LINE - 1).alignedSlice(CACHE_LINE);
    aligned.limit(capacity);
    return aligned.slice();
  }

  /** The implementation {@link #coder(int, int)} uses in this JVM. */
  public static Implementation defaultImplementation() {
    Implementation chosen = defaultImplementation;
    if (chosen == null) {
      synchronized (ReedSolomon.class) {
        if (defaultImplementation == null) {
          // Not cached when it throws: every caller gets the same clear error, not a class-init one.
          defaultImplementation = resolveDefault();
        }
        chosen = defaultImplementation;
      }
    }
    return chosen;
  }

  static void checkCode(int k, int r) {
    // Each bound on its own first: k + r in int arithmetic overflows past the last check.
    if (k < 1 || r < 1 || k > MAX_UNITS || r > MAX_UNITS || k + r > MAX_UNITS) {
      throw new IllegalArgumentException("invalid Reed-Solomon code (k=" + k + ", r=" + r
          + "): need k >= 1 data units, r >= 1 parity units and k + r <= " + MAX_UNITS
          + " (GF(2^8))");
    }
  }

  private static Implementation resolveDefault() {
    String choice = System.getProperty(CODER_PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    boolean required = Boolean.getBoolean(REQUIRE_NATIVE_PROPERTY);
    switch (choice) {
      case "java":
        LOG.info("eccache: Reed-Solomon coder = pure Java ({}=java)", CODER_PROPERTY);
        return Implementation.JAVA;
      case "native":
      case "auto":
        if (IsalLibrary.isAvailable()) {
          LOG.info("eccache: Reed-Solomon coder = native ISA-L ({})", IsalLibrary.source());
          return Implementation.NATIVE;
        }
        if (choice.equals("native") || required) {
          throw new IllegalStateException("eccache: the native ISA-L coder is required ("
              + (required ? REQUIRE_NATIVE_PROPERTY + "=true" : CODER_PROPERTY + "=native")
              + ") but did not load: " + IsalLibrary.loadingFailureReason());
        }
        LOG.warn("eccache: native ISA-L coder unavailable, using the much slower pure-Java coder."
            + " Why: {}. Fix that, or set -D{}=java to choose Java and silence this.",
            IsalLibrary.loadingFailureReason(), CODER_PROPERTY);
        return Implementation.JAVA;
      default:
        throw new IllegalArgumentException("-D" + CODER_PROPERTY + "=" + choice
            + " is not a coder: use auto, native or java");
    }
  }
}
