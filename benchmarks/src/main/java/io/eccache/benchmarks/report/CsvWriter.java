package io.eccache.benchmarks.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.IllegalFormatException;
import java.util.Locale;
import java.util.Objects;

/**
 * Writes a UTF-8 CSV file: the header first, then one line per {@link #row}.
 *
 * <p>Fields are quoted as RFC 4180 says: a field containing a comma, a double quote, CR or LF is
 * enclosed in double quotes, with its quotes doubled. Records end with {@code \n} rather than the
 * RFC's CRLF, like the other files under {@code benchmarks/results}; every CSV reader accepts it.
 * Numbers never depend on the default locale.
 */
public final class CsvWriter implements AutoCloseable {

  private final Writer out;
  private final int columns;
  private String doubleFormat = "%s";

  /**
   * Creates (or truncates) the file, creating missing parent directories, and writes the header.
   *
   * @param path the CSV file
   * @param header column names; at least one
   * @throws IllegalArgumentException if the header is empty
   * @throws IOException if the file cannot be written
   */
  public CsvWriter(Path path, String... header) throws IOException {
    Objects.requireNonNull(path, "path");
    if (header.length == 0) {
      throw new IllegalArgumentException("header must name at least one column, got "
          + Arrays.toString(header));
    }
    this.columns = header.length;
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    this.out = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
    write(header);
  }

  /**
   * Sets how later {@code Double} and {@code Float} cells are formatted, with {@link Locale#ROOT}.
   * The default {@code "%s"} writes the shortest text that reads back as the same double, which
   * suits raw data; use e.g. {@code "%.3f"} to round.
   *
   * @param format a {@link String#format} pattern taking one floating-point argument
   * @return this writer
   * @throws IllegalArgumentException if the pattern does not format a double
   */
  public CsvWriter doubleFormat(String format) {
    this.doubleFormat = checkDoubleFormat(format);
    return this;
  }

  /**
   * Writes one record. {@code null} becomes an empty field; doubles and floats use
   * {@link #doubleFormat}; everything else its {@code toString}.
   *
   * @param cells one value per header column
   * @return this writer
   * @throws IllegalArgumentException if the number of cells differs from the header's
   * @throws IOException if the file cannot be written
   */
  public CsvWriter row(Object... cells) throws IOException {
    if (cells.length != columns) {
      throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length
          + ": " + Arrays.toString(cells));
    }
    String[] text = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      text[i] = format(cells[i], doubleFormat, "");
    }
    write(text);
    return this;
  }

  /** Flushes and closes the file. */
  @Override
  public void close() throws IOException {
    out.close();
  }

  private void write(String[] fields) throws IOException {
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(quote(fields[i]));
    }
    out.write('\n');
  }

  /** RFC 4180 quoting: only fields that need it, so plain numbers stay plain. */
  static String quote(String field) {
    if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0
        && field.indexOf('\r') < 0) {
      return field;
    }
    return '"' + field.replace("\"", "\"\"") + '"';
  }

  /** Shared with {@link MarkdownTable}: cell to text, floating point through the given pattern. */
  static String format(Object cell, String doubleFormat, String nullText) {
    if (cell == null) {
      return nullText;
    }
    if (cell instanceof Double || cell instanceof Float) {
      return String.format(Locale.ROOT, doubleFormat, cell);
    }
    return cell.toString();
  }

  /** Fails fast on a bad pattern rather than on the first row that uses it. */
  static String checkDoubleFormat(String format) {
    Objects.requireNonNull(format, "format");
    try {
      String.format(Locale.ROOT, format, 1.0);
    } catch (IllegalFormatException e) {
      throw new IllegalArgumentException("not a format for one double: \"" + format + "\"", e);
    }
    return format;
  }
}
