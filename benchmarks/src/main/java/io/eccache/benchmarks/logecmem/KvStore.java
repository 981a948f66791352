package io.eccache.benchmarks.logecmem;

import java.io.IOException;

/**
 * A key-value store of LogECMem's testbed, as its proxy serves one scheme: values inserted,
 * read (degraded around killed DRAM nodes) and updated. One caller at a time, as the paper's proxy.
 */
interface KvStore extends AutoCloseable {
  /** The scheme's name as tables show it: {@code hybrid}, {@code inplace}, {@code fullstripe}... */
  String name();

  /** Stores a new value (an existing key is updated). */
  void insert(String key, byte[] value) throws IOException;

  /** The key's value; around a killed node, rebuilt from the rest of its stripe. */
  byte[] read(String key) throws IOException;

  /** Replaces the key's value with one of the same size. */
  void update(String key, byte[] value) throws IOException;

  /** Ends the load phase: values still waiting for a stripe are sealed in partial stripes. */
  void finishLoad() throws IOException;

  /**
   * Ends the run phase: work a scheme defers past its updates (FSMem's garbage collection, as the
   * paper's artifact runs it) is done now; returns its time in nanoseconds, 0 if none.
   */
  default long finishRun() throws IOException {
    return 0;
  }

  /**
   * The DRAM node (index into the testbed's) a normal read of {@code key} goes to: the node whose
   * loss makes that read degraded.
   *
   * @throws IOException if the store holds no such key
   */
  int homeNode(String key) throws IOException;

  /** The operations issued so far, by kind. */
  OpCounts counts();

  /**
   * The time of the last update's parity work alone, as the artifact times it: from after the old
   * value is read to the last parity written, excluding the data unit's own write; nanoseconds.
   */
  long lastParityNanos();

  @Override
  void close();
}
