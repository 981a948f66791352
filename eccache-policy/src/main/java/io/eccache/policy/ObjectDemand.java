package io.eccache.policy;

import java.util.Objects;

/**
 * One cached object as the allocators see it: its key, its size and how popular it is.
 *
 * <p>Popularity is a request rate or an EWMA count (see {@link PopularityTracker}); the allocators use only
 * relative values, except that SP-Cache's latency model turns them into rates with a total request rate it
 * is given separately. Immutable.
 */
public final class ObjectDemand {
  private final String key;
  private final long sizeBytes;
  private final double popularity;

  /**
   * @param key the object's key, unique within one allocation request
   * @param sizeBytes the object's size in bytes, at least 0
   * @param popularity a finite, non-negative request rate or count
   * @throws IllegalArgumentException if the size is negative or the popularity is negative or not finite
   */
  public ObjectDemand(String key, long sizeBytes, double popularity) {
    this.key = Objects.requireNonNull(key, "key");
    if (sizeBytes < 0) {
      throw new IllegalArgumentException(
          "sizeBytes must be >= 0 but was " + sizeBytes + " for '" + key + "'");
    }
    // NaN fails this test too, which is the point.
    if (!(popularity >= 0) || Double.isInfinite(popularity)) {
      throw new IllegalArgumentException(
          "popularity must be finite and >= 0 but was " + popularity + " for '" + key + "'");
    }
    this.sizeBytes = sizeBytes;
    this.popularity = popularity;
  }

  /** @return the object's key */
  public String key() {
    return key;
  }

  /** @return the object's size in bytes */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** @return the object's popularity: a rate or count, meaningful relative to other objects' */
  public double popularity() {
    return popularity;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof ObjectDemand)) {
      return false;
    }
    ObjectDemand that = (ObjectDemand) other;
    return key.equals(that.key) && sizeBytes == that.sizeBytes
        && Double.compare(popularity, that.popularity) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, sizeBytes, popularity);
  }

  @Override
  public String toString() {
    return "ObjectDemand{key=" + key + ", sizeBytes=" + sizeBytes + ", popularity=" + popularity + "}";
  }
}
