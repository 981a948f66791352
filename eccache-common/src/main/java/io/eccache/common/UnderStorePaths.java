package io.eccache.common;

import alluxio.exception.status.InvalidArgumentException;
import java.nio.charset.StandardCharsets;

/**
 * Where objects live in the under store (S3), as Alluxio paths under the configured prefix
 * ({@code alluxio.eccache.ufs.prefix}), which is mounted on S3.
 *
 * <ul>
 *   <li>eccache writes key {@code k} to {@code <prefix>/<encode(k)>}: one file directly under the
 *       prefix ({@link ObjectKeys#encode(String)}: '/' becomes {@code ~2F}), so keys never nest,
 *       {@code a} and {@code a/b} never clash as file and directory, no key leaves the prefix, and no
 *       two keys share a name. A key made of letters, digits and {@code -_.~} is its own name.</li>
 *   <li>A THROUGH or ASYNC write is staged at {@code <prefix>/.eccache-staging/<write id>} and
 *       renamed to its name by the coordinator when it commits; names starting with '.' are never a
 *       key's, so a staged or abandoned write is never read as an object. The staged copies have
 *       their directory to themselves, so the sweep that removes abandoned ones lists only them,
 *       not every object under the prefix.</li>
 *   <li>An object another tool put in S3 under a plain path ({@link #foreignPath(String)}) is found by
 *       read-through too: {@code <prefix>/data/x.csv} reads as key {@code data/x.csv}.</li>
 * </ul>
 */
public final class UnderStorePaths {
  /** Staged writes' directory under the prefix: a name no key encodes to (none starts with '.'). */
  public static final String STAGING_DIRECTORY = ".eccache-staging";
  /** S3's limit on an object name, which the Alluxio path under the mount must respect. */
  public static final int MAX_NAME_BYTES = 1024;

  private final String prefix;

  /** @param prefix the Alluxio directory mounted on the under store, e.g. {@code /} or {@code /s3} */
  public UnderStorePaths(String prefix) {
    String p = prefix == null ? "" : prefix.trim();
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    this.prefix = p;
  }

  /** The prefix directory, e.g. {@code /} or {@code /s3}. */
  public String directory() {
    return prefix.isEmpty() ? "/" : prefix;
  }

  /** Where eccache persists {@code key} (a valid key). */
  public String objectPath(String key) {
    return prefix + "/" + ObjectKeys.encode(key);
  }

  /**
   * Refuses a key whose under-store name would exceed S3's limit on object names
   * ({@value #MAX_NAME_BYTES} bytes): escaping can triple a key's length.
   */
  public void checkNameLength(String key) throws InvalidArgumentException {
    int bytes = objectPath(key).getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_NAME_BYTES) {
      throw new InvalidArgumentException("key '" + key + "' would be " + bytes + " bytes long in"
          + " the under store (" + directory() + ", escaped), more than S3's " + MAX_NAME_BYTES
          + ": PUT it CACHE_ONLY or use a shorter key");
    }
  }

  /** The directory holding the staged writes, and nothing else. */
  public String stagingDirectory() {
    return prefix + "/" + STAGING_DIRECTORY;
  }

  /** Where a THROUGH or ASYNC write stages the object before its commit publishes it. */
  public String stagingPath(String writeId) {
    return stagingDirectory() + "/" + writeId;
  }

  /** Whether {@code path} is a staged write's file (so a sweep may remove it when abandoned). */
  public boolean isStagingPath(String path) {
    String dir = stagingDirectory() + "/";
    return path.startsWith(dir) && path.length() > dir.length()
        && path.indexOf('/', dir.length()) < 0;
  }

  /**
   * Where another tool would have put {@code key} under the prefix, if the key is a plain path: '/'
   * separated non-empty segments of printable characters, none starting with '.', holding no '~'
   * (the escape), '%', ':', '?' or '\'. Null for any other key, and when it is the same as
   * {@link #objectPath(String)}. Such a path can never be another key's {@link #objectPath(String)}:
   * those hold no '/', and hold '~' only as escapes.
   */
  public String foreignPath(String key) {
    for (String segment : key.split("/", -1)) {
      if (segment.isEmpty() || segment.charAt(0) == '.') {
        return null;
      }
      for (int i = 0; i < segment.length(); i++) {
        char c = segment.charAt(i);
        // '?': Alluxio's AlluxioURI takes it as the start of a query, so "a/b?c" would be /a/b.
        if (Character.isISOControl(c) || c == '~' || c == '%' || c == ':' || c == '\\'
            || c == '?' || Character.isSurrogate(c) || Character.isWhitespace(c) && c != ' ') {
          return null;
        }
      }
    }
    String path = prefix + "/" + key;
    return path.equals(objectPath(key)) ? null : path;
  }

  /**
   * The path whose Alluxio permissions govern {@code key} (a valid key, docs/security.md): its
   * plain path when it has one, else its own name. A THROUGH copy published there is the key's
   * file; a copy under any other name is not.
   */
  public String governingPath(String key) {
    String plain = foreignPath(key);
    return plain != null ? plain : objectPath(key);
  }

  /**
   * Checks that eccache's own directory ({@code alluxio.master.eccache.root}) cannot be reached from a key
   * under this prefix: it must be outside the prefix, or at a name starting with '.'.
   *
   * @throws IllegalArgumentException if a key could name it
   */
  public void checkDisjointFrom(String root) {
    String r = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
    String base = prefix + "/";
    if (r.equals(prefix) || (r.startsWith(base) && r.charAt(base.length()) != '.')) {
      throw new IllegalArgumentException("eccache's root " + root + " is inside the under-store"
          + " prefix " + directory() + " where a key could name it: put it outside the prefix or at"
          + " a name starting with '.' (alluxio.master.eccache.root, alluxio.eccache.ufs.prefix)");
    }
  }
}
