package io.eccache.policy.agar;

import java.time.Duration;
import java.util.Objects;

/**
 * One backend region as a cache sees it: a name and the time to read one chunk from it (Agar's region
 * manager measures this in a warm-up phase; here the caller supplies it). Immutable.
 */
public final class Region {
  private final String name;
  private final Duration readLatency;

  /**
   * @param name the region's name, not empty
   * @param readLatency the time to read one chunk from it, not negative
   * @throws IllegalArgumentException if the name is empty or the latency negative
   */
  public Region(String name, Duration readLatency) {
    this.name = Objects.requireNonNull(name, "name");
    this.readLatency = Objects.requireNonNull(readLatency, "readLatency");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a region needs a name");
    }
    if (readLatency.isNegative()) {
      throw new IllegalArgumentException(
          "region " + name + " has a negative read latency " + readLatency);
    }
  }

  /** @return the region's name */
  public String name() {
    return name;
  }

  /** @return the time to read one chunk from this region */
  public Duration readLatency() {
    return readLatency;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof Region)) {
      return false;
    }
    Region that = (Region) other;
    return name.equals(that.name) && readLatency.equals(that.readLatency);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, readLatency);
  }

  @Override
  public String toString() {
    return name + "(" + readLatency.toMillis() + " ms)";
  }
}
