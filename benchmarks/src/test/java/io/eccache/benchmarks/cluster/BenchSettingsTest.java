package io.eccache.benchmarks.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.policy.ZipfSampler;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BenchSettingsTest {
  @Test
  void everySettingIsRecorded() {
    BenchSettings s = new BenchSettings();
    s.zipf = 0.7;
    Map<String, String> m = s.asMap();
    assertEquals("0.7", m.get("zipf"));
    assertEquals("ec+sr+sp", m.get("schemes"));
    assertEquals("ALONE", m.get("mode"));
    assertEquals("LEARNED", m.get("allocation"));
    assertEquals(BenchSettings.class.getFields().length, m.size(), m.toString());
    assertTrue(s.describe().startsWith("objects=20, objectBytes=8388608, zipf=0.7"),
        s.describe());
  }

  @Test
  void theExpectedLearningPassReadsEachObjectInProportionToItsProbability() {
    BenchSettings s = new BenchSettings();
    s.objects = 4;
    s.learning = 100;
    s.allocation = BenchSettings.AllocationSource.EXPECTED;
    ZipfSampler zipf = new ZipfSampler(4, 1.0); // 1, 1/2, 1/3, 1/4 over 25/12
    int[] seq = ClusterBenchmark.learningSequence(s, zipf, new Random(1));
    int[] counts = new int[4];
    Arrays.stream(seq).forEach(i -> counts[i]++);
    assertEquals("[48, 24, 16, 12]", Arrays.toString(counts));
    s.allocation = BenchSettings.AllocationSource.LEARNED;
    assertEquals(100, ClusterBenchmark.learningSequence(s, zipf, new Random(1)).length);
  }

  @Test
  void theLabelSaysWhatRan() {
    BenchSettings s = new BenchSettings();
    s.zipf = 1.1;
    s.objectBytes = 16L << 20;
    s.objects = 40;
    assertEquals("zipf 1.1, 16 MiB, 40 objects", s.workloadLabel());
    s.killedWorkers = 1;
    s.objectBytes = 40_000_000;
    assertEquals("zipf 1.1, 38.147 MiB, 40 objects, 1 SIGKILLed mid-phase", s.workloadLabel());
  }
}
