package io.eccache.benchmarks.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Builds a GitHub-flavoured Markdown table for {@code summary.md}:
 *
 * <pre>{@code
 * String md = new MarkdownTable("scheme", "mean ms").row("SR", 12.345).toString();
 * // | scheme | mean ms |
 * // | --- | --- |
 * // | SR | 12.35 |
 * }</pre>
 *
 * <p>Doubles and floats are formatted with {@link Locale#ROOT} (default {@code "%.2f"}), other
 * values with {@code toString}, {@code null} as an empty cell.
 */
public final class MarkdownTable {

  private final String[] header;
  private final List<String[]> rows = new ArrayList<>();
  private String doubleFormat = "%.2f";

  /**
   * Starts a table.
   *
   * @param header column names; at least one
   * @throws IllegalArgumentException if there are no columns
   */
  public MarkdownTable(String... header) {
    if (header.length == 0) {
      throw new IllegalArgumentException("header must name at least one column, got "
          + Arrays.toString(header));
    }
    this.header = new String[header.length];
    for (int i = 0; i < header.length; i++) {
      this.header[i] = escape(String.valueOf(header[i]));
    }
  }

  /**
   * Sets the pattern for doubles and floats in rows added afterwards.
   *
   * @param format a {@link String#format} pattern taking one floating-point argument, e.g.
   *     {@code "%.1f"}
   * @return this table
   * @throws IllegalArgumentException if the pattern does not format a double
   */
  public MarkdownTable doubleFormat(String format) {
    this.doubleFormat = CsvWriter.checkDoubleFormat(format);
    return this;
  }

  /**
   * Adds a row; cells are formatted now, so a later {@link #doubleFormat} does not change it.
   *
   * @param cells one value per column
   * @return this table
   * @throws IllegalArgumentException if the number of cells differs from the header's
   */
  public MarkdownTable row(Object... cells) {
    if (cells.length != header.length) {
      throw new IllegalArgumentException("expected " + header.length + " cells, got "
          + cells.length + ": " + Arrays.toString(cells));
    }
    String[] text = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      text[i] = escape(CsvWriter.format(cells[i], doubleFormat, ""));
    }
    rows.add(text);
    return this;
  }

  /** @return the table, one line per row, each ending in {@code \n} */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    line(sb, header);
    String[] rule = new String[header.length];
    Arrays.fill(rule, "---");
    line(sb, rule);
    for (String[] r : rows) {
      line(sb, r);
    }
    return sb.toString();
  }

  private static void line(StringBuilder sb, String[] cells) {
    sb.append('|');
    for (String c : cells) {
      sb.append(' ').append(c).append(" |");
    }
    sb.append('\n');
  }

  /** A bare {@code |} would split the cell and a line break would end the table. */
  private static String escape(String cell) {
    return cell.replace("|", "\\|").replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
  }
}
