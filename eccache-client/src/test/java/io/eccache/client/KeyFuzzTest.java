package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.file.FileSystem;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.grpc.SetAttributePOptions;
import alluxio.security.authorization.Mode;
import io.eccache.common.ObjectKeys;
import io.eccache.common.UnderStorePaths;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestUsers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Thousands of generated keys, dense in what could alias (dots, slashes, percent signs, the
 * internal namespace's names, surrogates, control characters, maximum lengths), PUT in random
 * write modes: every stored key reads back its own bytes and {@code list("")} holds exactly them.
 * On the client tests' shared cluster ({@link ClientTestCluster}): it deletes every object first
 * (other tests' objects are theirs to make again) and closes the cluster when done.
 */
class KeyFuzzTest {
  private static final int KEYS = Integer.getInteger("eccache.fuzz.keys", 800);
  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();
  private static EcCacheClient cache;

  @BeforeEach
  void start() throws Exception {
    cache = ClientTestCluster.client(CLUSTER.cluster());
    // The fuzz needs the whole key space: list("") must hold exactly what it stores.
    removeEveryObject();
    assertEquals(List.of(), cache.list(""), "the key space is empty before the fuzz");
  }

  /**
   * Hundreds of odd keys are left: closing the cluster is cheaper than deleting them (the next class
   * of this spec, if any, starts a fresh one; in name order none does).
   */
  @AfterEach
  void stop() {
    cache.close();
    CLUSTER.discard();
  }

  /** Deletes every key; one whose delete fails (another test's object) is evicted instead. */
  private static void removeEveryObject() throws IOException {
    for (String key : cache.list("")) {
      try {
        cache.delete(key);
      } catch (IOException e) {
        cache.evict(key);
      }
    }
  }

  @Test
  void everyKeyIsItselfAndNothingElse() throws Exception {
    fuzz(KEYS, 20261124);
  }

  private static void fuzz(int keys, long seed) throws Exception {
    Random random = new Random(seed);
    Map<String, byte[]> stored = new LinkedHashMap<>();
    Map<String, Integer> refused = new HashMap<>();
    int hashed = 0;
    for (int i = 0; i < keys; i++) {
      String key = randomKey(random);
      // The content names the key, so bytes read under another key are caught.
      byte[] data = content(key, i);
      WriteMode mode = random.nextInt(8) == 0 ? WriteMode.THROUGH : WriteMode.CACHE_ONLY;
      PutOptions options = (random.nextBoolean() ? PutOptions.code(2, 1) : PutOptions.replicas(2))
          .writeMode(mode);
      boolean valid = ObjectKeys.isValid(key);
      if (valid && i % 4 == 0) {
        assertThrowsNotFoundUnlessStored(key, stored);
      }
      try {
        // Every valid key, in every mode: a long one's S3 name is hashed to fit the test's S3
        // server, which keeps objects as files (names of 255 bytes; real S3 takes 1024).
        cache.put(key, data, options);
        assertTrue(valid, () -> "accepted a key outside the key model: " + describe(key));
        stored.put(key, data);
        if (mode == WriteMode.THROUGH && UnderStorePaths.objectName(key)
            .contains(UnderStorePaths.HASH_MARKER)) {
          hashed++;
        }
      } catch (InvalidArgumentException e) {
        assertFalse(valid, () -> "refused a valid key " + describe(key) + ": " + e.getMessage());
        refused.merge(e.getMessage().replaceAll("'.*'", "'…'").replaceAll("\\d+", "N"), 1,
            Integer::sum);
      }
    }
    for (Map.Entry<String, byte[]> e : stored.entrySet()) {
      assertArrayEquals(e.getValue(), cache.get(e.getKey()), describe(e.getKey()));
    }
    assertEquals(stored.keySet(), new HashSet<>(cache.list("")));
    // Deleting each key takes exactly that key.
    Set<String> left = new HashSet<>(stored.keySet());
    int n = 0;
    for (String key : stored.keySet()) {
      if (n++ % 7 != 0) {
        continue;
      }
      assertTrue(cache.delete(key), describe(key));
      assertThrows(NotFoundException.class, () -> cache.get(key), describe(key));
      left.remove(key);
    }
    assertEquals(left, new HashSet<>(cache.list("")));
    System.out.printf("key fuzz: %d keys tried, %d distinct stored (%d THROUGH under a hashed S3"
        + " name), %d refused, reasons %s%n", keys, stored.size(), hashed,
        refused.values().stream().mapToInt(i -> i).sum(), refused);
  }

  /**
   * The same fuzz, a third as long and on other keys, as a plain user (alice) with write
   * permission on Alluxio's root directory, so every key is hers to write: permissions change no
   * key's bytes or name.
   */
  @Test
  void everyKeyIsItselfAndNothingElseForAPlainUser() throws Exception {
    FileSystem root = CLUSTER.cluster().fileSystem();
    root.setAttribute(new AlluxioURI("/"), SetAttributePOptions.newBuilder()
        .setMode(new Mode((short) 0777).toProto()).build());
    EcCacheClient superuser = cache;
    try (EcCacheClient alice = EcCacheClient.create(TestUsers.as(TestUsers.ALICE))) {
      cache = alice;
      fuzz(KEYS / 3, 20261128);
    } finally {
      cache = superuser;
      root.setAttribute(new AlluxioURI("/"), SetAttributePOptions.newBuilder()
          .setMode(new Mode((short) 0755).toProto()).build());
    }
  }

  private static void assertThrowsNotFoundUnlessStored(String key, Map<String, byte[]> stored)
      throws IOException {
    if (stored.containsKey(key)) {
      assertArrayEquals(stored.get(key), cache.get(key));
    } else {
      // Not cached, so the GET asks S3 for each of the key's names, some of them longer than the
      // test's S3 server's file names (which it answers with a 500): none is there.
      assertThrows(NotFoundException.class, () -> cache.get(key));
    }
  }

  private static byte[] content(String key, int i) {
    byte[] name = key.getBytes(StandardCharsets.UTF_16BE);
    ByteBuffer b = ByteBuffer.allocate(4 + name.length + i % 300);
    b.putInt(i).put(name);
    return b.array();
  }

  private static String describe(String key) {
    StringBuilder s = new StringBuilder("\"");
    key.codePoints().limit(80).forEach(c -> s.append(c >= 0x20 && c < 0x7f ? String.valueOf(
        (char) c) : String.format("\\u{%x}", c)));
    return s.append(key.length() > 80 ? "…\" (" + key.length() + " chars)" : "\"").toString();
  }

  /** Keys dense in troublemakers, sometimes at the length limits. */
  private static String randomKey(Random random) {
    String[] atoms = {".", "..", "/", "//", "%", "%2F", "%2E", "%25", "~", "~2F", "~7E", "+", " ", "*", "~", "?", "#",
        ":", "\\", "\u0000", "\t", "\n", "\u007f", "é", "€", "😀", "\uD800", "\uDFFF",
        ".eccache", ".eccache/objects/", ".eccache-staging", ".eccache-staging/", "objects", "retired", "a", "B", "7",
        "data/", "-", "_"};
    int shape = random.nextInt(20);
    if (shape == 0) {
      // At or just past the byte limit, in one- and three-byte characters.
      String unit = random.nextBoolean() ? "x" : "€";
      int bytesPer = unit.equals("x") ? 1 : 3;
      int count = ObjectKeys.MAX_KEY_BYTES / bytesPer + random.nextInt(3) - 1;
      return unit.repeat(Math.max(1, count));
    }
    StringBuilder key = new StringBuilder();
    int n = 1 + random.nextInt(shape == 1 ? 60 : 6);
    for (int i = 0; i < n; i++) {
      key.append(atoms[random.nextInt(atoms.length)]);
    }
    if (random.nextInt(4) == 0) {
      key.append(random.nextInt(1000)); // so not every key is a repeat
    }
    return key.toString();
  }
}
