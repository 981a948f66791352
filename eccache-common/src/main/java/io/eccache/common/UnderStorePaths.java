package io.eccache.common;

import alluxio.exception.status.InvalidArgumentException;
import com.google.common.io.BaseEncoding;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Where objects live in the under store (S3), as Alluxio paths under the configured prefix
 * ({@code alluxio.eccache.ufs.prefix}), which is mounted on S3.
 *
 * <ul>
 *   <li>eccache writes key {@code k} to {@code <prefix>/<objectName(k)>}: one file directly under
 *       the prefix, so keys never nest, {@code a} and {@code a/b} never clash as file and
 *       directory, no key leaves the prefix, and no two keys share a name. The name is
 *       {@link ObjectKeys#encode(String)} ('/' becomes {@code ~2F}; a key made of letters, digits
 *       and {@code -_.} is its own name) when that fits in {@value #MAX_OBJECT_NAME_BYTES} bytes,
 *       else a hashed name (see {@link #objectName(String)}).</li>
 *   <li>A THROUGH or ASYNC write is staged at {@code <prefix>/.eccache-staging/<write id>} and
 *       renamed to its name by the coordinator when it commits; names starting with '.' are never a
 *       key's, so a staged or abandoned write is never read as an object. The staged copies have
 *       their directory to themselves, so the sweep that removes abandoned ones lists only them,
 *       not every object under the prefix.</li>
 *   <li>An object another tool put in S3 under a plain path ({@link #foreignPath(String)}) is found by
 *       read-through too: {@code <prefix>/data/x.csv} reads as key {@code data/x.csv}.</li>
 *   <li>A long key's copy written before names were hashed stays where it is and is still found
 *       ({@link #legacyPath(String)}): nothing is migrated.</li>
 * </ul>
 *
 * <p>Why names are limited: S3 takes object names of 1,024 bytes, but S3 servers that keep
 * objects as files (s3proxy's file-system backend, MinIO on a disk) make each path component a
 * file name, at most {@value #FILE_NAME_BYTES} bytes on Linux file systems, and answer a longer
 * one with an error ("500 Server Error"), even a GET of a name they do not hold. Full encodings can
 * be 3,072 bytes long. Nothing needs to map a hashed name back to its key: a read goes from the key
 * to its name, and the coordinator's records (the object's directory in Alluxio's namespace, named
 * by the full encoding and never persisted to S3, and its layout, holding the key and the copy's
 * path) are what listings are made of. So the full key is kept there, not in S3: Alluxio 2.9's
 * under-store API puts no user metadata on an S3 object, and an index object beside each copy
 * would be a second S3 write to keep consistent with the first, read by nothing.
 */
public final class UnderStorePaths {
  /** Staged writes' directory under the prefix: a name no key encodes to (none starts with '.'). */
  public static final String STAGING_DIRECTORY = ".eccache-staging";
  /** S3's limit on an object name, which the Alluxio path under the mount must respect. */
  public static final int MAX_NAME_BYTES = 1024;
  /**
   * The longest file name on the file systems S3 servers keep objects in (ext4, XFS, Btrfs): a
   * path component longer than this is a name no such server can hold.
   */
  public static final int FILE_NAME_BYTES = 255;
  /**
   * The longest name eccache gives an object under the prefix: {@value #FILE_NAME_BYTES} less the
   * 37 bytes ('-' and a UUID) s3proxy's file-system backend appends to the name of the temporary
   * file it writes an object to before renaming it into place (a 219-byte name fails there).
   */
  public static final int MAX_OBJECT_NAME_BYTES = FILE_NAME_BYTES - 37;
  /**
   * Between a hashed name's readable start and its hash. No full encoding holds it: there every
   * '~' starts an escape, followed by two upper-case hex digits.
   */
  public static final String HASH_MARKER = "~~";
  /** A SHA-256 digest in hex. */
  private static final int HASH_CHARS = 64;

  private final String prefix;

  /** @param prefix the Alluxio directory mounted on the under store, e.g. {@code /} or {@code /s3} */
  public UnderStorePaths(String prefix) {
    String p = prefix == null ? "" : prefix.trim();
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    this.prefix = p;
  }

  /**
   * The name of {@code key}'s copy (a valid key) directly under the prefix: its encoding
   * ({@link ObjectKeys#encode(String)}) when that is at most {@value #MAX_OBJECT_NAME_BYTES}
   * bytes, so every name given before stays; else the encoding's start (whole escapes, at most
   * 152 bytes, so the name still says which key it is), {@value #HASH_MARKER}, and the SHA-256
   * of the key's UTF-8 bytes in lower-case hex: 218 bytes at most.
   *
   * <p>Injective: a full encoding never holds {@value #HASH_MARKER} and a hashed name always does,
   * encodings are injective, and two hashed names are equal only if their keys' digests are (their
   * last 64 characters). Never starts with '.' (an encoding does not), so never eccache's own.
   */
  public static String objectName(String key) {
    return nameWithin(key, MAX_OBJECT_NAME_BYTES);
  }

  /**
   * {@code key}'s name in at most {@code maxBytes} bytes, as {@link #objectName(String)} makes it
   * in {@value #MAX_OBJECT_NAME_BYTES}: its encoding if that fits, else the encoding's start
   * (whole escapes), {@value #HASH_MARKER} and the key's SHA-256 in hex. Injective for any one
   * {@code maxBytes}, for the same reasons.
   *
   * @param maxBytes at least 67: room for the marker, the hash and a character
   */
  public static String nameWithin(String key, int maxBytes) {
    if (maxBytes < HASH_MARKER.length() + HASH_CHARS + 1) {
      throw new IllegalArgumentException("a name of " + maxBytes + " bytes has no room for a hash");
    }
    String encoded = ObjectKeys.encode(key); // ASCII: as many bytes as characters
    if (encoded.length() <= maxBytes) {
      return encoded;
    }
    int readable = maxBytes - HASH_MARKER.length() - HASH_CHARS;
    int end = 0;
    while (end < encoded.length()) {
      int next = end + (encoded.charAt(end) == '~' ? 3 : 1);
      if (next > readable) {
        break;
      }
      end = next;
    }
    return encoded.substring(0, end) + HASH_MARKER + sha256Hex(key);
  }

  /**
   * Whether {@code name} is a hashed name ({@link #nameWithin(String, int)} of a key too long for
   * its room): it ends with {@value #HASH_MARKER} and 64 lower-case hex digits.
   */
  public static boolean isHashedName(String name) {
    int marker = name.length() - HASH_CHARS - HASH_MARKER.length();
    if (marker < 1 || !name.startsWith(HASH_MARKER, marker)) {
      return false;
    }
    for (int i = marker + HASH_MARKER.length(); i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  private static String sha256Hex(String key) {
    try {
      return BaseEncoding.base16().lowerCase().encode(MessageDigest.getInstance("SHA-256")
          .digest(key.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** The prefix directory, e.g. {@code /} or {@code /s3}. */
  public String directory() {
    return prefix.isEmpty() ? "/" : prefix;
  }

  /** Where eccache persists {@code key} (a valid key): its {@link #objectName(String)}. */
  public String objectPath(String key) {
    return prefix + "/" + objectName(key);
  }

  /**
   * Where eccache persisted {@code key} (a valid key) before long names were hashed: under its full
   * encoding. Null when that is {@link #objectPath(String)}, or when it is longer than S3's
   * {@value #MAX_NAME_BYTES} bytes ({@link #checkNameLength(String)} refused such THROUGH and ASYNC
   * PUTs, so no copy can be there). A copy there stays readable and is removed with its key.
   * Never another key's path of any kind: no {@link #objectPath(String)} is a full encoding that
   * long, and a {@link #foreignPath(String)} of one component holding no '~' is its key's own
   * encoding, so it is this key's (a long plain key's legacy and plain paths are the same).
   */
  public String legacyPath(String key) {
    String encoded = ObjectKeys.encode(key);
    if (encoded.length() <= MAX_OBJECT_NAME_BYTES) {
      return null;
    }
    String path = prefix + "/" + encoded;
    return path.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES ? null : path;
  }

  /**
   * Every path {@code key} (a valid key) may have a copy under, in the order to look: its
   * {@link #objectPath(String)}, its {@link #legacyPath(String)}, its {@link #foreignPath(String)}
   * (those that exist; a long plain key's last two are the same path, listed once).
   */
  public Set<String> copyPaths(String key) {
    Set<String> candidates = new LinkedHashSet<>();
    candidates.add(objectPath(key));
    String legacy = legacyPath(key);
    if (legacy != null) {
      candidates.add(legacy);
    }
    String foreign = foreignPath(key);
    if (foreign != null) {
      candidates.add(foreign);
    }
    return candidates;
  }

  /**
   * Whether {@code path} has a component longer than {@value #FILE_NAME_BYTES} bytes in UTF-8: a
   * name an S3 server that keeps objects as files cannot hold, and may answer any request for with
   * an error rather than "not found" (s3proxy's file-system backend answers a HEAD, GET or DELETE
   * of one with 500). Looking for a copy under such a name ({@link #legacyPath(String)}, a long
   * {@link #foreignPath(String)}), a failure that Alluxio's namespace does not explain counts as
   * no copy there; eccache's own names ({@link #objectPath(String)}) never have one.
   */
  public static boolean beyondFileNames(String path) {
    int start = 0;
    while (start <= path.length()) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? path.length() : slash;
      // A UTF-8 byte per char at least, three at most (a surrogate pair is four for two chars).
      if (end - start > FILE_NAME_BYTES / 3 && path.substring(start, end)
          .getBytes(StandardCharsets.UTF_8).length > FILE_NAME_BYTES) {
        return true;
      }
      if (slash < 0) {
        return false;
      }
      start = slash + 1;
    }
    return false;
  }

  /**
   * Refuses a key whose under-store path would exceed S3's limit on object names
   * ({@value #MAX_NAME_BYTES} bytes). A name is at most {@value #MAX_OBJECT_NAME_BYTES} bytes, so
   * only a prefix longer than 805 bytes leaves a key without room; the key itself is held to
   * S3's {@value ObjectKeys#MAX_KEY_BYTES} bytes by {@link ObjectKeys#check(String)}.
   */
  public void checkNameLength(String key) throws InvalidArgumentException {
    int bytes = objectPath(key).getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_NAME_BYTES) {
      throw new InvalidArgumentException("key '" + key + "' would be " + bytes + " bytes long in"
          + " the under store (" + directory() + "), more than S3's " + MAX_NAME_BYTES
          + ": PUT it CACHE_ONLY, or configure a shorter alluxio.eccache.ufs.prefix");
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
   * {@link #objectPath(String)}. Such a path can never be another key's {@link #objectPath(String)}
   * or {@link #legacyPath(String)}: those hold no '/' below the prefix, and hold '~' only in
   * escapes and the hash marker.
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
