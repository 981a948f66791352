package io.eccache.common;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The proof that an update of a packed stripe was leased by the coordinator: an HMAC-SHA256 over
 * the stripe, the update and the version it starts from, under a key the coordinator makes at
 * start and hands only to log nodes (in their authenticated, superuser-only registration). A log
 * node buffers a delta, or takes a decision about one, only with the capability of that update, so
 * a client that may not update a stripe cannot put a delta into its parity.
 */
public final class UpdateCapability {
  private static final String MAC = "HmacSHA256";
  /** Key length in bytes. */
  public static final int KEY_BYTES = 32;

  private UpdateCapability() {}

  /** A new random key. */
  public static byte[] newKey() {
    byte[] key = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(key);
    return key;
  }

  /** The capability of update {@code updateId} of {@code stripe} from {@code baseVersion}. */
  public static byte[] of(byte[] key, long stripe, long updateId, long baseVersion) {
    try {
      Mac mac = Mac.getInstance(MAC);
      mac.init(new SecretKeySpec(key, MAC));
      return mac.doFinal(ByteBuffer.allocate(24).putLong(stripe).putLong(updateId)
          .putLong(baseVersion).array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no " + MAC, e);
    }
  }

  /** Whether {@code given} is that capability under {@code key} (in constant time). */
  public static boolean holds(byte[] key, long stripe, long updateId, long baseVersion,
      byte[] given) {
    return key != null && given != null && given.length > 0
        && MessageDigest.isEqual(of(key, stripe, updateId, baseVersion), given);
  }
}
