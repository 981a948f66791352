package io.eccache.common;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Where an object lives in Alluxio's namespace: {@code <root>/objects/<escaped key>/} holds the
 * committed layout as an xattr, and one directory per write, {@code <write id>/}, with the split files
 * {@code d00..d(k-1)} and {@code p00..p(r-1)}. A new PUT writes a new directory and commit switches the
 * layout to it in one xattr update, so readers see the old object or the new one, never a mix.
 */
public final class ObjectPaths {
  /** Keys longer than this are refused: Alluxio path components have limits, and so do users. */
  public static final int MAX_KEY_BYTES = 1024;

  /** The xattr on an object's directory holding its serialized {@code Layout}. */
  public static final String LAYOUT_XATTR = "eccache.layout";

  private final String root;

  public ObjectPaths(String root) {
    this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
  }

  /** The directory of all objects. */
  public String objectsDirectory() {
    return root + "/objects";
  }

  /** The directory of the object {@code key}. */
  public String objectDirectory(String key) {
    return objectsDirectory() + "/" + escape(checkKey(key));
  }

  /** The directory of one write of {@code key}. */
  public String writeDirectory(String key, String writeId) {
    return objectDirectory(key) + "/" + writeId;
  }

  /** The erasure-coded scheme: k data splits and r parity splits. */
  public static final String SCHEME_EC = "ec";
  /** The replication scheme: one whole copy and r more, each on its own worker. */
  public static final String SCHEME_REPLICA = "replica";
  /** SP-Cache's selective partition: k partitions, no redundancy, every one read. */
  public static final String SCHEME_PARTITION = "partition";

  /** The namespace of a key: its first path component ("" for a key without '/'). */
  public static String namespaceOf(String key) {
    int slash = key.indexOf('/');
    return slash < 0 ? "" : key.substring(0, slash);
  }

  /** The file name of split {@code index} of a (k, r) erasure-coded layout. */
  public static String splitName(int index, int k) {
    return index < k ? String.format("d%02d", index) : String.format("p%02d", index - k);
  }

  /** The file name of split (or copy) {@code index} of a layout of {@code scheme}. */
  public static String splitName(int index, int k, String scheme) {
    return SCHEME_REPLICA.equals(scheme) ? String.format("r%02d", index) : splitName(index, k);
  }

  /** The key an object directory's name stands for. */
  public static String keyOf(String directoryName) {
    return URLDecoder.decode(directoryName, StandardCharsets.UTF_8);
  }

  /**
   * Checks a user's key.
   *
   * @throws IllegalArgumentException if it is null, empty or too long
   */
  public static String checkKey(String key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("an object key must be a non-empty string");
    }
    if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
      throw new IllegalArgumentException("object key is longer than " + MAX_KEY_BYTES
          + " bytes (UTF-8); use a shorter key, e.g. a hash of this one");
    }
    return key;
  }

  /**
   * Where the object {@code key} is persisted in the under store, as an Alluxio path under
   * {@code prefix}: the key itself, so S3 users find their objects under their own names.
   *
   * @throws IllegalArgumentException if the key is not a plain relative path
   */
  public static String persistedPath(String prefix, String key) {
    checkKey(key);
    if (key.startsWith("/") || key.endsWith("/") || key.contains("//")) {
      throw new IllegalArgumentException("key '" + key + "' cannot be persisted to S3 as a path:"
          + " use '/'-separated names without a leading or trailing '/' or empty parts");
    }
    for (String part : key.split("/")) {
      if (part.equals(".") || part.equals("..")) {
        throw new IllegalArgumentException("key '" + key + "' has a '" + part + "' part; it cannot"
            + " be persisted to S3 as a path");
      }
    }
    String base = prefix.endsWith("/") ? prefix : prefix + "/";
    return base + key;
  }

  /** One path component for any key: URL-escaped, so '/' and '%' cannot nest or collide. */
  static String escape(String key) {
    return URLEncoder.encode(key, StandardCharsets.UTF_8).replace("*", "%2A");
  }
}
