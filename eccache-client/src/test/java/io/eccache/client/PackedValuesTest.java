package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.file.FileInStream;
import alluxio.exception.status.NotFoundException;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LogId;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import io.eccache.common.proto.Stripe;
import io.eccache.isal.CodeMatrix;
import io.eccache.isal.ReedSolomon;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Packed values (LogECMem) end to end on the shared five-worker cluster, whose namespace "kv" packs
 * values up to 1 KiB into RS(3, 2) stripes: a value waits as three replicas, a maintainer seals
 * full units into stripes (k data units and P1 in the cache, P2 on a log node, each equal to a
 * fresh encode), a sealed value is read from its slot, and around lost units: with P1 for one,
 * with the log node's parity for two.
 */
@Timeout(180)
class PackedValuesTest {
  private static final int K = 3;
  private static final int R = 2;
  private static final int UNIT = 1024;

  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();

  private EmbeddedCluster cluster;
  private EcCacheClient cache;
  private RedundancyMaintainer maintainer;

  @BeforeEach
  void start() throws Exception {
    cluster = CLUSTER.cluster();
    cache = ClientTestCluster.client(cluster);
    maintainer = RedundancyMaintainer.create(cache);
  }

  @AfterEach
  void stop() throws Exception {
    maintainer.close();
    cache.close();
  }

  /** PUTs {@code n} values of 150-350 bytes under namespace kv; key -> value, in PUT order. */
  private Map<String, byte[]> putValues(int n, long seed) throws Exception {
    Random random = new Random(seed);
    Map<String, byte[]> values = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String key = ClientTestCluster.PACKED + "/" + CLUSTER.key("v" + i);
      byte[] value = TestData.randomBytes(150 + random.nextInt(201), seed * 1000 + i);
      cache.put(key, value);
      values.put(key, value);
    }
    return values;
  }

  private LookupResponse lookup(String key) throws Exception {
    return cache.context().coordinator().lookup(key, true);
  }

  /** Runs the maintainer until it finds nothing to do; the keys sealed by then. */
  private List<String> seal(Map<String, byte[]> values) throws Exception {
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

  @Test
  void valuesWaitAsReplicasUntilSealedAndEveryParityIsAFreshEncode() throws Exception {
    Map<String, byte[]> values = putValues(60, 1);
    for (Map.Entry<String, byte[]> e : values.entrySet()) {
      Layout layout = lookup(e.getKey()).getLayout();
      assertTrue(layout.hasPacked() && layout.getPacked().getStripe() == 0, e.getKey());
      assertEquals(RedundancyScheme.replicated(R + 1), SchemeProtos.of(layout));
      assertArrayEquals(e.getValue(), cache.get(e.getKey()), e.getKey());
    }

    List<String> sealed = seal(values);
    // 60 values of about 250 bytes fill about 15 units of 1 KiB over 5 queues: 2 or more stripes.
    assertTrue(sealed.size() >= 2 * K * 2, "sealed: " + sealed.size() + " of 60");
    Set<Long> stripes = new HashSet<>();
    for (String key : sealed) {
      LookupResponse lookup = lookup(key);
      assertEquals(RedundancyScheme.erasureCoded(K, R), SchemeProtos.of(lookup.getLayout()));
      assertEquals(K + 1, lookup.getSplitsCount(), "k data units and P1");
      if (stripes.add(lookup.getStripe().getId())) {
        checkParities(lookup.getStripe());
      }
    }
    for (Map.Entry<String, byte[]> e : values.entrySet()) {
      assertArrayEquals(e.getValue(), cache.get(e.getKey()), e.getKey()); // sealed or waiting
    }
    String first = sealed.get(0);
    byte[] whole = values.get(first);
    assertArrayEquals(java.util.Arrays.copyOfRange(whole, 10, 60), cache.get(first, 10, 50),
        "a range of a packed value");
  }

  /** P1 and the log node's row equal a fresh encode of the stripe's data units. */
  private void checkParities(Stripe stripe) throws Exception {
    byte[][] units = new byte[K + 1][];
    for (int i = 0; i <= K; i++) {
      units[i] = new byte[UNIT];
      try (FileInStream in = cluster.fileSystem().openFile(
          new AlluxioURI(stripe.getUnits(i).getPath()))) {
        assertEquals(UNIT, in.read(units[i]));
      }
    }
    ByteBuffer[] data = new ByteBuffer[K];
    for (int i = 0; i < K; i++) {
      data[i] = ByteBuffer.wrap(units[i]);
    }
    ByteBuffer[] parity = {ByteBuffer.allocate(UNIT), ByteBuffer.allocate(UNIT)};
    ReedSolomon.coder(K, R, CodeMatrix.XOR_FIRST_CAUCHY).encode(data, parity);
    assertArrayEquals(parity[0].array(), units[K], "P1, in the cache");
    ReadParityResponse row1 = cache.context().logNodes().readParity(
        stripe.getLogParities(0).getLogNode(), ReadParityRequest.newBuilder()
            .setLog(LogId.newBuilder().setNamespace(ClientTestCluster.PACKED).setDataUnits(K)
                .setParityUnits(R).setRow(1).setUnitSize(UNIT))
            .setStripe(stripe.getId()).setVersion(stripe.getVersion()).build());
    assertEquals(ReadParityResponse.Outcome.AT_VERSION, row1.getOutcome());
    assertArrayEquals(parity[1].array(), row1.getParity().toByteArray(), "P2, on its log node");
  }

  @Test
  void aSealedValueIsReadAroundOneLostUnitWithP1AndTwoWithTheLogNode() throws Exception {
    Map<String, byte[]> values = putValues(60, 2);
    List<String> sealed = seal(values);
    assertFalse(sealed.isEmpty());
    // A value whose unit's worker does not host the stripe's log node.
    String key = null;
    LookupResponse lookup = null;
    for (String k : sealed) {
      lookup = lookup(k);
      String unitHost = lookup.getSplits(lookup.getLayout().getPacked().getUnit()).getWorker()
          .getHost();
      if (!lookup.getStripe().getLogParities(0).getLogNode().startsWith(unitHost + ":")) {
        key = k;
        break;
      }
    }
    assertTrue(key != null, "a sealed value away from its log node");
    int unit = lookup.getLayout().getPacked().getUnit();
    String logHost = lookup.getStripe().getLogParities(0).getLogNode().split(":")[0];
    cluster.stopWorker(cluster.workerIndex(lookup.getSplits(unit).getWorker().getHost()));
    assertArrayEquals(values.get(key), cache.get(key), "one unit lost: rebuilt with P1");

    String second = null;
    for (int i = 0; i < K; i++) {
      String host = lookup.getSplits(i).getWorker().getHost();
      if (i != unit && !host.equals(logHost)) {
        second = host;
        break;
      }
    }
    assertTrue(second != null);
    cluster.stopWorker(cluster.workerIndex(second));
    assertArrayEquals(values.get(key), cache.get(key), "two units lost: rebuilt with P2");
  }

  @Test
  void aPutOfASealedKeyStoresANewVersionAndADeleteRemovesIt() throws Exception {
    Map<String, byte[]> values = putValues(60, 3);
    List<String> sealed = seal(values);
    String key = sealed.get(0);
    byte[] next = TestData.randomBytes(200, 99);
    cache.put(key, next);
    assertEquals(0, lookup(key).getLayout().getPacked().getStripe(), "waits for a new stripe");
    assertArrayEquals(next, cache.get(key));

    String other = sealed.get(1);
    assertTrue(cache.delete(other));
    assertThrows(NotFoundException.class, () -> cache.get(other));
    // Its neighbours in the stripe are untouched.
    for (String k : sealed.subList(2, sealed.size())) {
      assertArrayEquals(values.get(k), cache.get(k), k);
    }

    String large = ClientTestCluster.PACKED + "/" + CLUSTER.key("large");
    byte[] big = TestData.randomBytes(5 * UNIT, 7);
    cache.put(large, big);
    assertFalse(lookup(large).getLayout().hasPacked(), "larger than a unit: striped");
    assertArrayEquals(big, cache.get(large));
  }
}
