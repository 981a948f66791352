package io.eccache.common;

import alluxio.exception.status.InvalidArgumentException;
import com.google.common.base.Utf8;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The key model: which strings are object keys, and the one injective encoding of a key into a single
 * path component. Every place that turns a key into a name (the object's directory in Alluxio, its
 * copy in the under store, there hashed when too long for a file name:
 * {@link UnderStorePaths#objectName(String)}) goes through {@link #encode(String)}, so two keys
 * never meet and no key reaches a name eccache keeps for itself.
 *
 * <p>A key is any well-formed Unicode string of 1 to {@value #MAX_KEY_BYTES} bytes in UTF-8: a
 * lone UTF-16 surrogate is refused (it has no UTF-8 form, so it would silently become '?' and meet
 * another key). Every other character is allowed, including '/', '.', '%', spaces and control
 * characters: none of them has a meaning inside a key. {@code "a"}, {@code "a/b"}, {@code "."} and
 * {@code "a/../b"} are four different keys.
 *
 * <p>The encoding writes every UTF-8 byte outside {@code [A-Za-z0-9-_.]}, and a leading '.' too, as
 * {@code ~XX} (upper-case hex): the result is never empty, never {@code "."} or {@code ".."}, never
 * starts with '.' (names starting with '.' are eccache's own) and never holds a '/'. It is
 * injective because '~' is always escaped and the escapes are canonical; {@link #decode(String)}
 * accepts only names that {@code encode} produces. The escape is '~' rather than URL encoding's '%'
 * because Alluxio 2.9 formats some error messages with the file's path as the format string, so a
 * '%' in a path turns an I/O error into an {@code UnknownFormatConversionException}.
 */
public final class ObjectKeys {
  /** Keys longer than this in UTF-8 are refused (S3's own limit for an object name). */
  public static final int MAX_KEY_BYTES = 1024;

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
  /** Starts an escape; never left as itself in a name. */
  private static final char ESCAPE = '~';

  private ObjectKeys() {}

  /**
   * Checks a user's key against the key model.
   *
   * @return the key
   * @throws InvalidArgumentException if it is null, empty, not well-formed Unicode or too long
   */
  public static String check(String key) throws InvalidArgumentException {
    if (key == null || key.isEmpty()) {
      throw new InvalidArgumentException("an object key must be a non-empty string");
    }
    int bytes;
    try {
      bytes = Utf8.encodedLength(key); // counts without encoding: every GET checks its key
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(new MalformedKeyException(key).getMessage());
    }
    if (bytes > MAX_KEY_BYTES) {
      throw new InvalidArgumentException("object key is " + bytes + " bytes long in UTF-8, more than"
          + " " + MAX_KEY_BYTES + ": use a shorter key, e.g. a hash of this one");
    }
    return key;
  }

  /** Whether {@code key} is a key (see {@link #check(String)}). */
  public static boolean isValid(String key) {
    try {
      check(key);
      return true;
    } catch (InvalidArgumentException e) {
      return false;
    }
  }

  /** The key as one path component (see the class comment). The key must be valid. */
  public static String encode(String key) {
    byte[] bytes = utf8(key);
    StringBuilder name = new StringBuilder(bytes.length + 8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      if (isUnreserved(b) && !(i == 0 && b == '.')) {
        name.append((char) b);
      } else {
        name.append(ESCAPE).append(HEX[b >> 4]).append(HEX[b & 0xf]);
      }
    }
    return name.toString();
  }

  /**
   * The key a path component stands for, or null when the name is not exactly what
   * {@link #encode(String)} makes of some key (a name another tool created, or eccache's own).
   */
  public static String decode(String name) {
    if (name == null || name.isEmpty()) {
      return null;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == ESCAPE) {
        if (i + 2 >= name.length()) {
          return null;
        }
        int hi = Character.digit(name.charAt(i + 1), 16);
        int lo = Character.digit(name.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return null;
        }
        bytes.write(hi << 4 | lo);
        i += 2;
      } else if (c < 0x80 && isUnreserved(c)) {
        bytes.write(c);
      } else {
        return null;
      }
    }
    String key;
    try {
      key = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
    // Canonical form only: lower-case hex or needless escapes would make a second name for a key.
    return isValid(key) && encode(key).equals(name) ? key : null;
  }

  private static boolean isUnreserved(int b) {
    return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9')
        || b == '-' || b == '_' || b == '.';
  }

  /** Strict UTF-8: a lone surrogate is an error here, not a '?'. */
  private static byte[] utf8(String key) {
    try {
      ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(key));
      byte[] bytes = new byte[encoded.remaining()];
      encoded.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      throw new MalformedKeyException(key);
    }
  }

  /** A key that is not well-formed Unicode; {@link #check(String)} turns it into a typed error. */
  private static final class MalformedKeyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    MalformedKeyException(String key) {
      super("object key is not well-formed Unicode (it holds a lone UTF-16 surrogate, at index "
          + firstLoneSurrogate(key) + "): keys must round-trip through UTF-8");
    }
  }

  private static int firstLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }
}
