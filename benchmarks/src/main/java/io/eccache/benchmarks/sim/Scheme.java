package io.eccache.benchmarks.sim;

/** The caching schemes the simulator compares. */
public enum Scheme {
  /**
   * EC-Cache: k data plus r_i parity splits of S/k bytes on distinct servers, r_i from the coordinator's
   * {@code ParityAllocator}; a read fetches k + Delta live splits and completes with the k-th.
   */
  EC,
  /**
   * Selective replication: c_i whole copies on distinct servers, c_i from the coordinator's
   * {@code ReplicaAllocator} under the same budget as EC; a read fetches one live copy.
   */
  SR,
  /**
   * SP-Cache: k_i partitions of S/k_i bytes on distinct servers, k_i from the coordinator's
   * {@code PartitionAllocator}, no redundancy; a read fetches every partition.
   */
  SP,
  /** One whole copy per object on one random server, no extra memory: the baseline. */
  SINGLE
}
