package io.eccache.coordinator.form.packed;

import alluxio.util.FormatUtils;
import io.eccache.common.PackedUnits;
import io.eccache.common.RedundancyScheme;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One packed namespace (LogECMem): its values up to {@link #unitSize()} bytes are packed into
 * units of stripes coded with RS(k, r) (the XOR-first Cauchy matrix, so parity P1 is the XOR of
 * the data units), and updated by {@link #updateMode()}. Parsed from {@code ns=packed-K-R}, with
 * optional {@code :mode} and {@code :size} parts, e.g. {@code kv=packed-10-4:inplace:16KB}.
 */
public final class PackedNamespace {
  /** A unit's size when a namespace names none: the paper's 4 KiB. */
  public static final long DEFAULT_UNIT_SIZE = 4096;
  /** The largest unit: a unit is one small file, read and written whole by an update. */
  public static final long MAX_UNIT_SIZE = PackedUnits.MAX_UNIT_SIZE;

  private static final Pattern SPEC =
      Pattern.compile("([^=\\s]+)=packed-(\\d{1,3})-(\\d{1,3})((?::[^:,]+){0,2})");

  /** How an update of a packed value reaches the parities, per namespace (the paper's three). */
  public enum UpdateMode {
    /** LogECMem: read the old value and P1, write the new unit and P1, log ΔD at r - 1 nodes. */
    HYBRID,
    /** IPMem: read and write the data unit and all r parities. */
    INPLACE,
    /** FSMem: append the new value to an open unit, invalidate the old slot, re-encode later. */
    FULLSTRIPE;

    static UpdateMode parse(String text) {
      try {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("update mode '" + text + "' is not hybrid, inplace or"
            + " fullstripe");
      }
    }
  }

  private final String name;
  private final RedundancyScheme code;
  private final UpdateMode updateMode;
  private final long unitSize;

  PackedNamespace(String name, RedundancyScheme code, UpdateMode updateMode, long unitSize) {
    this.name = name;
    this.code = code;
    this.updateMode = updateMode;
    this.unitSize = unitSize;
  }

  /**
   * Parses one entry.
   *
   * @throws IllegalArgumentException for a malformed entry, a code without a parity to log
   *     (r < 2 leaves no log node) or a unit size out of range, quoting it
   */
  public static PackedNamespace parse(String entry) {
    String e = entry.trim();
    Matcher m = SPEC.matcher(e);
    if (!m.matches()) {
      throw new IllegalArgumentException("packed namespace '" + e + "' is not"
          + " namespace=packed-K-R[:hybrid|inplace|fullstripe][:unit size] (e.g."
          + " kv=packed-10-4 or kv=packed-6-3:inplace:16KB)");
    }
    int k = Integer.parseInt(m.group(2));
    int r = Integer.parseInt(m.group(3));
    if (k < 1 || r < 2 || k + r + 1 > RedundancyScheme.MAX_SPLITS) {
      throw new IllegalArgumentException("packed namespace '" + e + "': k must be at least 1 and r"
          + " at least 2 (P1 in memory and at least one parity on a log node), k + r at most "
          + (RedundancyScheme.MAX_SPLITS - 1));
    }
    UpdateMode mode = UpdateMode.HYBRID;
    long unit = DEFAULT_UNIT_SIZE;
    boolean modeSeen = false;
    boolean sizeSeen = false;
    for (String part : m.group(4).split(":")) {
      if (part.isEmpty()) {
        continue;
      }
      if (Character.isDigit(part.charAt(0))) {
        if (sizeSeen) {
          throw new IllegalArgumentException("packed namespace '" + e + "' names two unit sizes");
        }
        sizeSeen = true;
        unit = FormatUtils.parseSpaceSize(part);
        if (unit < 64 || unit > MAX_UNIT_SIZE) {
          throw new IllegalArgumentException("packed namespace '" + e + "': a unit of " + unit
              + " bytes; use 64 B to " + MAX_UNIT_SIZE + " B");
        }
      } else {
        if (modeSeen) {
          throw new IllegalArgumentException("packed namespace '" + e + "' names two update"
              + " modes");
        }
        modeSeen = true;
        mode = UpdateMode.parse(part);
      }
    }
    return new PackedNamespace(m.group(1), RedundancyScheme.erasureCoded(k, r), mode, unit);
  }

  /** The namespace: a key's first path component. */
  public String name() {
    return name;
  }

  /** The stripes' code: k data units, P1 in memory, P2..Pr on log nodes. */
  public RedundancyScheme code() {
    return code;
  }

  public UpdateMode updateMode() {
    return updateMode;
  }

  /** A unit's size, and the largest value packed (larger ones take the striped path). */
  public long unitSize() {
    return unitSize;
  }

  @Override
  public String toString() {
    return name + "=packed-" + code.dataSplits() + "-" + code.paritySplits() + ":"
        + updateMode.name().toLowerCase(Locale.ROOT) + ":" + unitSize;
  }
}
