package io.eccache.client;

/** Where a PUT puts the object, besides the cache (mirrors Alluxio's write types). */
public enum WriteMode {
  /** Splits in the cache only: fastest, lost if more than r of its workers die. */
  CACHE_ONLY,
  /** Also persist the whole object to the under store (S3) before the PUT returns. */
  THROUGH,
  /** Persist the whole object to the under store in the background after the PUT returns. */
  ASYNC
}
