package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import alluxio.AlluxioURI;
import alluxio.client.file.FileInStream;
import alluxio.client.file.FileSystem;
import io.eccache.common.proto.LogId;
import io.eccache.common.proto.LogParity;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import io.eccache.common.proto.Stripe;
import io.eccache.isal.CodeMatrix;
import io.eccache.isal.ReedSolomon;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * What the packed-value tests share: a client and a maintainer, values put, stripes sealed,
 * parities checked.
 */
final class PackedFixture implements AutoCloseable {
  private final FileSystem fs;
  private final Function<String, String> keyOf;
  private final EcCacheClient cache;
  private final RedundancyMaintainer maintainer;

  /**
   * A client of the shared in-process cluster and a maintainer made from it, with keys of the
   * running test; closing the fixture closes both.
   */
  static PackedFixture open(SharedCluster shared) throws java.io.IOException {
    EcCacheClient cache = ClientTestCluster.client(shared.cluster());
    return new PackedFixture(shared.cluster().fileSystem(), shared::key, cache,
        RedundancyMaintainer.create(cache));
  }

  EcCacheClient cache() {
    return cache;
  }

  RedundancyMaintainer maintainer() {
    return maintainer;
  }

  @Override
  public void close() {
    maintainer.close();
    cache.close();
  }

  /**
   * @param fs a superuser's Alluxio client, to read unit files
   * @param keyOf a test's own key for a name
   */
  PackedFixture(FileSystem fs, Function<String, String> keyOf, EcCacheClient cache,
      RedundancyMaintainer maintainer) {
    this.fs = fs;
    this.keyOf = keyOf;
    this.cache = cache;
    this.maintainer = maintainer;
  }

  /** PUTs {@code n} values of 150-350 bytes in {@code namespace}; key -> value, in PUT order. */
  Map<String, byte[]> putValues(String namespace, int n, long seed) throws Exception {
    Random random = new Random(seed);
    Map<String, byte[]> values = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String key = namespace + "/" + keyOf.apply("v" + i);
      byte[] value = TestData.randomBytes(150 + random.nextInt(201), seed * 1000 + i);
      cache.put(key, value);
      values.put(key, value);
    }
    return values;
  }

  LookupResponse lookup(String key) throws Exception {
    return cache.context().coordinator().lookup(key, true);
  }

  /** Runs the maintainer until it finds nothing to do; the keys of {@code values} sealed by then. */
  List<String> seal(Map<String, byte[]> values) throws Exception {
    for (int round = 0; round < 20 && maintainer.runOnce() > 0; round++) {
      // each round seals what the coordinator submitted
    }
    List<String> sealed = new ArrayList<>();
    for (String key : values.keySet()) {
      if (lookup(key).getLayout().getPacked().getStripe() != 0) {
        sealed.add(key);
      }
    }
    return sealed;
  }

  /** Every parity of {@code stripe} (cached and on log nodes) equals a fresh encode of its data. */
  void checkParities(Stripe stripe) throws Exception {
    int k = stripe.getDataUnits();
    int r = stripe.getParityUnits();
    int unit = (int) stripe.getUnitSize();
    byte[][] units = new byte[stripe.getUnitsCount()][];
    for (int i = 0; i < units.length; i++) {
      units[i] = new byte[unit];
      try (FileInStream in = fs.openFile(
          new AlluxioURI(stripe.getUnits(i).getPath()))) {
        assertEquals(unit, in.read(units[i]));
      }
    }
    ByteBuffer[] data = new ByteBuffer[k];
    for (int i = 0; i < k; i++) {
      data[i] = ByteBuffer.wrap(units[i]);
    }
    ByteBuffer[] parity = new ByteBuffer[r];
    for (int i = 0; i < r; i++) {
      parity[i] = ByteBuffer.allocate(unit);
    }
    ReedSolomon.coder(k, r, CodeMatrix.XOR_FIRST_CAUCHY).encode(data, parity);
    for (int i = k; i < units.length; i++) {
      assertArrayEquals(parity[i - k].array(), units[i], "cached parity row " + (i - k)
          + " of stripe " + stripe.getId() + " v" + stripe.getVersion());
    }
    for (LogParity p : stripe.getLogParitiesList()) {
      ReadParityResponse row = cache.context().logNodes().readParity(p.getLogNode(),
          ReadParityRequest.newBuilder().setLog(LogId.newBuilder()
              .setNamespace(stripe.getNamespace()).setDataUnits(k).setParityUnits(r)
              .setRow(p.getRow()).setUnitSize(unit))
              .setStripe(stripe.getId()).setVersion(stripe.getVersion()).build());
      assertEquals(ReadParityResponse.Outcome.AT_VERSION, row.getOutcome(),
          "row " + p.getRow() + " on " + p.getLogNode());
      assertArrayEquals(parity[p.getRow()].array(), row.getParity().toByteArray(),
          "parity row " + p.getRow() + " on its log node, stripe " + stripe.getId() + " v"
              + stripe.getVersion());
    }
  }
}
