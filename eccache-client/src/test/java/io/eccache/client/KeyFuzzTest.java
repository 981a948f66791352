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

  /**
   * Deletes every key; one whose S3 name the test's S3 server cannot take (its delete fails with a
   * 500) is evicted from the cache instead.
   */
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
    int throughFailed = 0;
    int s3NameTooLong = 0;
    for (int i = 0; i < keys; i++) {
      String key = randomKey(random);
      // The content names the key, so bytes read under another key are caught.
      byte[] data = content(key, i);
      WriteMode mode = random.nextInt(8) == 0 ? WriteMode.THROUGH : WriteMode.CACHE_ONLY;
      PutOptions options = (random.nextBoolean() ? PutOptions.code(2, 1) : PutOptions.replicas(2))
          .writeMode(mode);
      boolean valid = ObjectKeys.isValid(key);
      try {
        cache.put(key, data, options);
        assertTrue(valid, () -> "accepted a key outside the key model: " + describe(key));
        stored.put(key, data);
      } catch (InvalidArgumentException e) {
        if (valid && mode == WriteMode.THROUGH) {
          throughFailed++; // a name too long for S3 once escaped: refused, nothing written
        } else {
          assertFalse(valid, () -> "refused a valid key " + describe(key) + ": " + e.getMessage());
        }
        refused.merge(e.getMessage().replaceAll("'.*'", "'…'").replaceAll("\\d+", "N"), 1,
            Integer::sum);
        if (valid) {
          assertThrowsNotFoundUnlessStored(key, stored);
        }
      } catch (IOException e) {
        // The test's S3 server keeps objects as files: names over 255 bytes fail there (real S3
        // takes 1024). Such a PUT must fail whole, leaving what was there before.
        assertTrue(valid && mode == WriteMode.THROUGH && new UnderStorePaths("/").objectPath(key)
            .length() > 255, () -> "PUT " + describe(key) + " failed: " + e);
        s3NameTooLong++;
        assertThrowsNotFoundUnlessStored(key, stored);
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
      left.remove(key);
    }
    assertEquals(left, new HashSet<>(cache.list("")));
    System.out.printf("key fuzz: %d keys tried, %d distinct stored, %d refused (%d valid keys too"
        + " long for S3 once escaped, %d too long for the test S3 server's file names),"
        + " reasons %s%n", keys, stored.size(), refused.values().stream().mapToInt(i -> i).sum(),
        throughFailed, s3NameTooLong, refused);
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
    } else if (new UnderStorePaths("/").objectPath(key).length() > 255) {
      // Not cached, so the GET asks S3, and the test's S3 server answers 500 (not 404) for a name
      // longer than its file names can be: a typed error, never bytes.
      assertThrows(IOException.class, () -> cache.get(key));
    } else {
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
