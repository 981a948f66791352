package io.eccache.cli;

/** Byte counts for people, in binary units. */
final class ByteSizes {
  private ByteSizes() {}

  /** 999 B, 1.5 KiB, 2.4 MiB, 8.0 GiB. */
  static String format(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    int unit = (63 - Long.numberOfLeadingZeros(bytes)) / 10; // 1 = KiB, 2 = MiB, ...
    return String.format("%.1f %siB", bytes / (double) (1L << (10 * unit)),
        "KMGTPE".charAt(unit - 1));
  }
}
