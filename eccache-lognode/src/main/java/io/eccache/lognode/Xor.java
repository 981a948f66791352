package io.eccache.lognode;

import java.util.List;

/** The arithmetic of parity deltas: all of it is XOR, by the code's linearity (the paper's Property 2). */
final class Xor {
  private Xor() {}

  /** {@code target[targetOffset..] ^= source[0..length)}. */
  static void into(byte[] target, int targetOffset, byte[] source, int sourceOffset, int length) {
    for (int i = 0; i < length; i++) {
      target[targetOffset + i] ^= source[sourceOffset + i];
    }
  }

  /**
   * Applies a run of parts, in chain order and all in memory, to a unit: a base replaces it, a delta is
   * XORed in at its offset.
   */
  static void apply(byte[] unit, List<Part> parts) {
    for (Part part : parts) {
      if (part.isBase()) {
        System.arraycopy(part.bytes, 0, unit, 0, part.length);
      } else {
        into(unit, part.offset, part.bytes, 0, part.length);
      }
    }
  }

  /**
   * Merges a run of consecutive parts, all in memory, into one: a base if the run starts with one
   * (that base with every later delta applied, at the run's last version), else one delta over the
   * smallest byte range covering them all (zero where none of them changed anything).
   *
   * @throws IllegalStateException if a base appears after the first part or the versions do not
   *     follow each other
   */
  static Part merge(List<Part> run, int unitSize) {
    Part first = run.get(0);
    Part last = run.get(run.size() - 1);
    for (int i = 1; i < run.size(); i++) {
      if (run.get(i).isBase() || run.get(i).fromVersion != run.get(i - 1).toVersion + 1) {
        throw new IllegalStateException("not a run of consecutive deltas: " + run);
      }
    }
    if (first.isBase()) {
      byte[] unit = new byte[unitSize];
      apply(unit, run);
      return Part.base(last.toVersion, unit);
    }
    if (run.size() == 1) {
      return first;
    }
    int from = Integer.MAX_VALUE;
    int to = 0;
    for (Part part : run) {
      from = Math.min(from, part.offset);
      to = Math.max(to, part.offset + part.length);
    }
    from = Math.min(from, to);
    byte[] merged = new byte[to - from];
    for (Part part : run) {
      into(merged, part.offset - from, part.bytes, 0, part.length);
    }
    return Part.delta(first.fromVersion, last.toVersion, from, merged);
  }
}
