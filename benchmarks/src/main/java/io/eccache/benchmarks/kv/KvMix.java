package io.eccache.benchmarks.kv;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request mix: reads against updates of loaded keys ({@code read:update 95:5}, LogECMem's Exp. 2)
 * or against writes of new keys ({@code read:write 95:5}, its Exp. 1).
 */
public final class KvMix {
  private static final Pattern FORM = Pattern.compile("(read:update|read:write) (\\d+):(\\d+)");

  private final int readPercent;
  private final int otherPercent;
  private final KvOp.Kind other;

  private KvMix(int readPercent, int otherPercent, KvOp.Kind other) {
    if (readPercent < 0 || otherPercent < 0 || readPercent + otherPercent != 100) {
      throw new IllegalArgumentException("a mix's shares are percentages that add up to 100, got "
          + readPercent + ":" + otherPercent);
    }
    this.readPercent = readPercent;
    this.otherPercent = otherPercent;
    this.other = other;
  }

  /** Reads and updates of loaded keys, e.g. {@code readUpdate(95, 5)}. */
  public static KvMix readUpdate(int readPercent, int updatePercent) {
    return new KvMix(readPercent, updatePercent, KvOp.Kind.UPDATE);
  }

  /** Reads of loaded keys and writes (inserts) of new ones, e.g. {@code readWrite(95, 5)}. */
  public static KvMix readWrite(int readPercent, int writePercent) {
    return new KvMix(readPercent, writePercent, KvOp.Kind.INSERT);
  }

  /**
   * The mix {@code text} names, as {@link #toString()} prints it: {@code read:update 95:5} or
   * {@code read:write 50:50}.
   *
   * @throws IllegalArgumentException naming the form expected
   */
  public static KvMix parse(String text) {
    Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a mix: give e.g. 'read:update"
          + " 95:5' or 'read:write 50:50'");
    }
    int read = Integer.parseInt(m.group(2));
    int other = Integer.parseInt(m.group(3));
    return m.group(1).equals("read:update") ? readUpdate(read, other) : readWrite(read, other);
  }

  /** The share of reads, percent. */
  public int readPercent() {
    return readPercent;
  }

  /** The share of updates, or of writes of new keys. */
  public int otherPercent() {
    return otherPercent;
  }

  /** {@link KvOp.Kind#UPDATE} or {@link KvOp.Kind#INSERT}. */
  public KvOp.Kind other() {
    return other;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KvMix && ((KvMix) o).readPercent == readPercent
        && ((KvMix) o).other == other;
  }

  @Override
  public int hashCode() {
    return readPercent * 31 + other.hashCode();
  }

  @Override
  public String toString() {
    return (other == KvOp.Kind.UPDATE ? "read:update " : "read:write ") + readPercent + ":"
        + otherPercent;
  }
}
