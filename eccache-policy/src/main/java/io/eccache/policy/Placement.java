package io.eccache.policy;

import java.util.Arrays;
import java.util.Objects;
import java.util.Random;

/**
 * Where each object's partitions live: for object i, the {@code k_i} distinct servers (numbered
 * {@code 0..servers-1}) holding one partition each. Objects are numbered by their position in the arrays
 * handed to {@link ForkJoinLatencyBound}.
 *
 * <p>{@link #random} draws the placement SP-Cache and EC-Cache both use; {@link #of} takes one observed on a
 * real cluster (the caller maps worker ids to server numbers). Immutable.
 */
public final class Placement {
  /** SplitMix64's increment: consecutive objects get well separated seeds. */
  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

  private final int servers;
  private final int[][] serversOfObject;

  private Placement(int servers, int[][] serversOfObject) {
    this.servers = servers;
    this.serversOfObject = serversOfObject;
  }

  /**
   * Places object i on {@code partitions[i]} distinct servers chosen uniformly at random.
   *
   * <p>Object i's servers are the first {@code k_i} of a random order of all servers drawn from
   * {@code (seed, i)} alone. So with one seed, raising k_i only adds servers to object i and leaves every
   * other object where it was: scores of different partition counts differ by the counts, not by a fresh
   * draw of the whole cluster (common random numbers).
   *
   * @param servers number of servers, at least 1
   * @param partitions per object, the partition count, each in {@code [1, servers]}
   * @param seed the only source of randomness: equal seeds give equal placements
   * @throws IllegalArgumentException if a count is out of range
   */
  public static Placement random(int servers, int[] partitions, long seed) {
    checkServers(servers);
    Objects.requireNonNull(partitions, "partitions");
    int[] pool = new int[servers];
    int[][] chosen = new int[partitions.length][];
    for (int i = 0; i < partitions.length; i++) {
      int count = partitions[i];
      checkPartitions(i, count, servers);
      Random random = new Random(mix(seed + i * GOLDEN_GAMMA));
      for (int s = 0; s < servers; s++) {
        pool[s] = s;
      }
      // Partial Fisher-Yates: the first `count` positions are a uniform ordered sample, and a longer
      // shuffle from the same stream starts with the same positions.
      for (int j = 0; j < count; j++) {
        int pick = j + random.nextInt(servers - j);
        int held = pool[j];
        pool[j] = pool[pick];
        pool[pick] = held;
      }
      chosen[i] = Arrays.copyOf(pool, count);
    }
    return new Placement(servers, chosen);
  }

  /**
   * Takes a given placement, e.g. the one a real cluster holds.
   *
   * @param servers number of servers, at least 1
   * @param serversOfObject per object, the distinct servers holding its partitions (at least one)
   * @throws IllegalArgumentException if an object has no server, a server number is out of range or an
   *     object names a server twice
   */
  public static Placement of(int servers, int[][] serversOfObject) {
    checkServers(servers);
    Objects.requireNonNull(serversOfObject, "serversOfObject");
    int[][] copy = new int[serversOfObject.length][];
    boolean[] used = new boolean[servers];
    for (int i = 0; i < serversOfObject.length; i++) {
      int[] holders = Objects.requireNonNull(serversOfObject[i], "serversOfObject[" + i + "]");
      checkPartitions(i, holders.length, servers);
      for (int server : holders) {
        if (server < 0 || server >= servers) {
          throw new IllegalArgumentException("object " + i + " names server " + server
              + ", outside [0, " + servers + ")");
        }
        if (used[server]) {
          throw new IllegalArgumentException("object " + i + " names server " + server + " twice");
        }
        used[server] = true;
      }
      for (int server : holders) {
        used[server] = false;
      }
      copy[i] = holders.clone();
    }
    return new Placement(servers, copy);
  }

  /** @return the number of servers */
  public int servers() {
    return servers;
  }

  /** @return the number of objects placed */
  public int objects() {
    return serversOfObject.length;
  }

  /**
   * @param object an object number
   * @return its partition count k_i
   */
  public int partitions(int object) {
    return serversOfObject[object].length;
  }

  /**
   * @param object an object number
   * @param partition a partition number in {@code [0, partitions(object))}
   * @return the server holding that partition
   */
  public int server(int object, int partition) {
    return serversOfObject[object][partition];
  }

  /**
   * @param object an object number
   * @return a copy of the servers holding its partitions
   */
  public int[] serversOf(int object) {
    return serversOfObject[object].clone();
  }

  @Override
  public String toString() {
    return "Placement{servers=" + servers + ", objects=" + serversOfObject.length + "}";
  }

  /** SplitMix64's finaliser, so that nearby (seed, object) pairs give unrelated streams. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static void checkServers(int servers) {
    if (servers < 1) {
      throw new IllegalArgumentException("servers must be >= 1 but was " + servers);
    }
  }

  private static void checkPartitions(int object, int count, int servers) {
    if (count < 1 || count > servers) {
      throw new IllegalArgumentException("object " + object + " has " + count
          + " partitions, outside [1, " + servers + "]");
    }
  }
}
