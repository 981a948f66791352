package io.eccache.benchmarks.kv;

import java.util.Objects;

/** One request of a key-value trace: an INSERT of a new key, a READ or UPDATE of a loaded one. */
public final class KvOp {
  /** What a request does. */
  public enum Kind {
    INSERT, READ, UPDATE
  }

  private final Kind kind;
  private final String key;

  /**
   * @param kind what the request does
   * @param key the key it names: printable ASCII without spaces, as YCSB's are
   */
  public KvOp(Kind kind, String key) {
    this.kind = Objects.requireNonNull(kind);
    this.key = Objects.requireNonNull(key);
  }

  /** What the request does. */
  public Kind kind() {
    return kind;
  }

  /** The key it names. */
  public String key() {
    return key;
  }

  /** The trace line of this request, in the LogECMem artifact's format: {@code READ user123}. */
  public String line() {
    return kind + " " + key;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KvOp && ((KvOp) o).kind == kind && ((KvOp) o).key.equals(key);
  }

  @Override
  public int hashCode() {
    return kind.hashCode() * 31 + key.hashCode();
  }

  @Override
  public String toString() {
    return line();
  }
}
