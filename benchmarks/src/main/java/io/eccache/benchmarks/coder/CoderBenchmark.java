package io.eccache.benchmarks.coder;

import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reed-Solomon throughput of the native ISA-L coder, its pure-Java twin and Hadoop's pure-Java
 * {@code RSRawEncoder}/{@code RSRawDecoder}, on the same stripes as {@code isal_bench.c}.
 *
 * <p>One operation codes one stripe; data throughput is ops/s x k x split bytes, which
 * {@link CoderReport} computes. "hot" reuses one stripe; "stream" cycles through stripes holding at
 * least 256 MiB of data, more than this machine's L3 cache. decode1 rebuilds data unit 0 from units
 * 1..k; decodeR rebuilds data units 0..r-1 from units r..k+r-1 (as many erasures as the code
 * tolerates). Hadoop gets heap arrays, its fastest path; our coders take 64-byte aligned direct
 * buffers ({@link ReedSolomon#allocateAligned}), as the C reference does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:MaxDirectMemorySize=4g",
    "-Deccache.isal.required=true"})
public class CoderBenchmark {
  /** Data bytes a streaming working set covers at least: beyond the 105 MiB L3 cache. */
  static final long STREAM_DATA_BYTES = 256L << 20;

  @Param({"native", "java", "hadoop"})
  public String coder;

  @Param({"10-4", "6-3"})
  public String code;

  @Param({"4096", "65536", "1048576", "4194304"})
  public int splitBytes;

  @Param({"hot", "stream"})
  public String workingSet;

  private int k;
  private int r;
  private Stripe[] stripes;
  private int next;

  private ErasureCoder ours;
  private RSRawEncoder hadoopEncoder;
  private RSRawDecoder hadoopDecoder;
  private int[] erased1;
  private int[] erasedR;

  @Setup(Level.Trial)
  public void setUp() {
    String[] kr = code.split("-");
    k = Integer.parseInt(kr[0]);
    r = Integer.parseInt(kr[1]);
    boolean heap = coder.equals("hadoop");
    switch (coder) {
      case "native":
        ours = ReedSolomon.coder(k, r, ReedSolomon.Implementation.NATIVE);
        break;
      case "java":
        ours = ReedSolomon.coder(k, r, ReedSolomon.Implementation.JAVA);
        break;
      case "hadoop":
        ErasureCoderOptions options = new ErasureCoderOptions(k, r);
        hadoopEncoder = new RSRawEncoder(options);
        hadoopDecoder = new RSRawDecoder(options);
        break;
      default:
        throw new IllegalArgumentException("unknown coder " + coder);
    }
    erased1 = new int[] {0};
    erasedR = new int[r];
    for (int i = 0; i < r; i++) {
      erasedR[i] = i;
    }
    int count = workingSet.equals("hot") ? 1
        : (int) Math.max(2, (STREAM_DATA_BYTES + (long) k * splitBytes - 1) / ((long) k * splitBytes));
    SplittableRandom random = new SplittableRandom(42);
    stripes = new Stripe[count];
    for (int s = 0; s < count; s++) {
      stripes[s] = new Stripe(k, r, splitBytes, heap, random);
      encode(stripes[s]); // real parity, so the decode outputs are meaningful
    }
  }

  @TearDown(Level.Trial)
  public void verify() throws IOException {
    // Not timed: the last stripe's decode outputs must equal the data they rebuilt.
    Stripe s = stripes[0];
    decode(s, s.survivorsR, erasedR, s.outR);
    for (int i = 0; i < r; i++) {
      if (!s.unitEquals(i, s.outR, i)) {
        throw new IllegalStateException(coder + " decodeR produced wrong bytes for unit " + i);
      }
    }
  }

  private Stripe nextStripe() {
    Stripe s = stripes[next];
    next = next + 1 == stripes.length ? 0 : next + 1;
    return s;
  }

  @Benchmark
  public Object encode() throws IOException {
    return encode(nextStripe());
  }

  @Benchmark
  public Object decode1() throws IOException {
    Stripe s = nextStripe();
    return decode(s, s.survivors1, erased1, s.out1);
  }

  @Benchmark
  public Object decodeR() throws IOException {
    Stripe s = nextStripe();
    return decode(s, s.survivorsR, erasedR, s.outR);
  }

  private Object encode(Stripe s) {
    if (ours != null) {
      ours.encode(s.data, s.parity);
      return s.parity;
    }
    try {
      hadoopEncoder.encode(s.heapData, s.heapParity);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return s.heapParity;
  }

  private Object decode(Stripe s, Stripe.Units survivors, int[] erased, Stripe.Units out)
      throws IOException {
    if (ours != null) {
      ours.decode(survivors.direct, erased, out.direct);
      return out.direct;
    }
    hadoopDecoder.decode(survivors.heap, erased, out.heap);
    return out.heap;
  }

  /** One stripe of k data and r parity units, and the decode inputs and outputs over it. */
  static final class Stripe {
    final ByteBuffer[] data;
    final ByteBuffer[] parity;
    final byte[][] heapData;
    final byte[][] heapParity;
    final Units survivors1;
    final Units survivorsR;
    final Units out1;
    final Units outR;

    /** A unit array in the form each coder takes: direct buffers for ours, arrays for Hadoop. */
    static final class Units {
      ByteBuffer[] direct;
      byte[][] heap;
    }

    Stripe(int k, int r, int len, boolean heap, SplittableRandom random) {
      if (heap) {
        data = null;
        parity = null;
        heapData = new byte[k][len];
        heapParity = new byte[r][len];
        for (byte[] d : heapData) {
          fill(d, random);
        }
      } else {
        heapData = null;
        heapParity = null;
        data = new ByteBuffer[k];
        parity = new ByteBuffer[r];
        byte[] chunk = new byte[len];
        for (int i = 0; i < k; i++) {
          fill(chunk, random);
          data[i] = ReedSolomon.allocateAligned(len);
          data[i].put(chunk).flip();
        }
        for (int i = 0; i < r; i++) {
          parity[i] = ReedSolomon.allocateAligned(len);
        }
      }
      survivors1 = survivors(k, r, 0, 1, heap);
      survivorsR = survivors(k, r, 0, r, heap);
      out1 = outputs(1, len, heap);
      outR = outputs(r, len, heap);
    }

    /** Units with [from, to) removed: the lowest k of the rest are what the decoders read. */
    private Units survivors(int k, int r, int from, int to, boolean heap) {
      Units u = new Units();
      if (heap) {
        u.heap = new byte[k + r][];
        for (int i = 0; i < k + r; i++) {
          u.heap[i] = i >= from && i < to ? null : i < k ? heapData[i] : heapParity[i - k];
        }
        // Hadoop reads every non-null input it is given: leave exactly k.
        int present = 0;
        for (int i = 0; i < k + r; i++) {
          if (u.heap[i] != null && ++present > k) {
            u.heap[i] = null;
          }
        }
      } else {
        u.direct = new ByteBuffer[k + r];
        for (int i = 0; i < k + r; i++) {
          u.direct[i] = i >= from && i < to ? null : i < k ? data[i] : parity[i - k];
        }
      }
      return u;
    }

    private static Units outputs(int count, int len, boolean heap) {
      Units u = new Units();
      if (heap) {
        u.heap = new byte[count][len];
      } else {
        u.direct = new ByteBuffer[count];
        for (int i = 0; i < count; i++) {
          u.direct[i] = ReedSolomon.allocateAligned(len);
        }
      }
      return u;
    }

    boolean unitEquals(int dataUnit, Units out, int outIndex) {
      if (heapData != null) {
        return java.util.Arrays.equals(heapData[dataUnit], out.heap[outIndex]);
      }
      return data[dataUnit].equals(out.direct[outIndex]);
    }

    private static void fill(byte[] bytes, SplittableRandom random) {
      for (int i = 0; i < bytes.length; i += 8) {
        long v = random.nextLong();
        for (int b = 0; b < 8 && i + b < bytes.length; b++) {
          bytes[i + b] = (byte) (v >>> (8 * b));
        }
      }
    }
  }
}
