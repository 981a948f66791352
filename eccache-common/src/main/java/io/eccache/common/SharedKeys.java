package io.eccache.common;

import alluxio.conf.PropertyKey;
import alluxio.grpc.Scope;
import java.util.List;

/**
 * Keys that the coordinator (in the master) and clients both read: {@code alluxio.eccache.*},
 * {@link Scope#ALL}. Set them alike on both sides.
 */
public final class SharedKeys {
  /**
   * The Alluxio directory whose under store (S3) holds the objects themselves; the splits are a
   * cache of it.
   */
  public static final PropertyKey UFS_PREFIX = KeyRegistry.register(
      PropertyKey.Builder.stringBuilder("alluxio.eccache.ufs.prefix")
          .setDefaultValue("/")
          .setScope(Scope.ALL)
          .setDescription("Alluxio directory (mounted on S3) where objects are persisted: key k is"
              + " the one file <prefix>/<encoded k>, hashed to fit 218 bytes when longer (see"
              + " 'Keys in the under store'). THROUGH and"
              + " ASYNC PUTs write there; GETs read through from there. eccache's root must not be"
              + " reachable from a key: outside the prefix, or at a name starting with '.' (the"
              + " coordinator refuses to start otherwise).")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** Objects smaller than this are stored as whole copies when the coordinator chooses. */
  public static final PropertyKey SMALL_OBJECT_THRESHOLD = KeyRegistry.register(
      PropertyKey.Builder.dataSizeBuilder("alluxio.eccache.small.object.threshold")
          .setDefaultValue("1MB")
          .setScope(Scope.ALL)
          .setDescription("The coordinator stores an object smaller than this, PUT without a"
              + " scheme, as whole copies (the paper's rule for small objects; they take part in"
              + " the popularity budget as replicas). Clients streaming an object of unknown"
              + " length look ahead this far, so the coordinator learns a small object's size.")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** Every shared key, in documentation order. */
  public static final List<PropertyKey> ALL = List.of(UFS_PREFIX, SMALL_OBJECT_THRESHOLD);

  private SharedKeys() {}
}
