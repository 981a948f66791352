package io.eccache.benchmarks.report;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG plots for the results directories, drawn with XChart.
 *
 * <p>Each method writes exactly the given path (creating missing parent directories), at the
 * given size or {@value #DEFAULT_WIDTH}x{@value #DEFAULT_HEIGHT}, and returns the path. Series
 * appear in the maps' iteration order, so pass a {@code LinkedHashMap} or {@code TreeMap} for a
 * stable legend.
 */
public final class Plots {

  /** Default image width in pixels. */
  public static final int DEFAULT_WIDTH = 800;
  /** Default image height in pixels. */
  public static final int DEFAULT_HEIGHT = 500;

  /** Bytes per MB on the load axis: decimal, as network and disk rates are quoted. */
  private static final double BYTES_PER_MB = 1e6;
  /** Points per halving of the remaining tail in the CDF: smooth up to p99.99 without bloat. */
  private static final int CDF_TICKS_PER_HALF_DISTANCE = 5;
  /** Beyond this many categories, labels are turned vertical so they do not overlap. */
  private static final int MAX_HORIZONTAL_LABELS = 8;

  /**
   * Sorts worker names with digit runs compared as numbers, so {@code worker-2} comes before
   * {@code worker-10} and {@code 10.0.0.9} before {@code 10.0.0.10}; plain string order would
   * scatter a 25-worker cluster. Names equal but for leading zeros fall back to string order, so
   * distinct names never compare equal.
   */
  public static final Comparator<String> WORKER_ORDER = Plots::compareNatural;

  static {
    // Benchmarks run on servers without a display; AWT must not try to open one.
    System.setProperty("java.awt.headless", "true");
  }

  private Plots() {}

  /**
   * Latency CDFs, one line per series, at the default size.
   *
   * @see #latencyCdf(Path, String, Map, int, int)
   */
  public static Path latencyCdf(Path png, String title,
      Map<String, ? extends AbstractHistogram> latenciesMicros) throws IOException {
    return latencyCdf(png, title, latenciesMicros, DEFAULT_WIDTH, DEFAULT_HEIGHT);
  }

  /**
   * Latency CDFs, one line per series: x is latency in ms, y the fraction of reads at most that
   * slow, from HdrHistogram's percentile iteration (denser towards the tail, where the schemes
   * differ).
   *
   * @param png output file
   * @param title chart title
   * @param latenciesMicros series name to latencies recorded in microseconds; none empty
   * @param width image width in pixels
   * @param height image height in pixels
   * @return {@code png}
   * @throws IllegalArgumentException if there are no series, a histogram is empty or the size is
   *     not positive
   * @throws IOException if the file cannot be written
   */
  public static Path latencyCdf(Path png, String title,
      Map<String, ? extends AbstractHistogram> latenciesMicros, int width, int height)
      throws IOException {
    checkNotEmpty(latenciesMicros, "latenciesMicros");
    XYChart chart = xyChart(title, "latency (ms)", "fraction of reads", width, height);
    chart.getStyler().setYAxisMin(0.0).setYAxisMax(1.0);
    // A CDF leaves the bottom right empty.
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
    for (Map.Entry<String, ? extends AbstractHistogram> e : latenciesMicros.entrySet()) {
      AbstractHistogram h = Objects.requireNonNull(e.getValue(), e.getKey());
      if (h.getTotalCount() == 0) {
        throw new IllegalArgumentException("histogram of series " + e.getKey() + " is empty");
      }
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (HistogramIterationValue v : h.percentiles(CDF_TICKS_PER_HALF_DISTANCE)) {
        xs.add(v.getValueIteratedTo() / 1000.0);
        ys.add(v.getPercentileLevelIteratedTo() / 100.0);
      }
      chart.addSeries(e.getKey(), xs, ys).setMarker(SeriesMarkers.NONE);
    }
    return save(chart, png);
  }

  /**
   * Bytes served per worker, at the default size.
   *
   * @see #workerLoadBars(Path, String, Map, int, int)
   */
  public static Path workerLoadBars(Path png, String title,
      Map<String, Map<String, Long>> bytesByWorkerPerScheme) throws IOException {
    return workerLoadBars(png, title, bytesByWorkerPerScheme, DEFAULT_WIDTH, DEFAULT_HEIGHT);
  }

  /**
   * Grouped bars of the load each worker carried: x is the worker (the union over all schemes, in
   * {@link #WORKER_ORDER}), y the MB (10^6 bytes) it served, one series per scheme. A worker
   * missing from a scheme's map is drawn as 0.
   *
   * @param png output file
   * @param title chart title
   * @param bytesByWorkerPerScheme scheme to (worker to bytes served)
   * @param width image width in pixels
   * @param height image height in pixels
   * @return {@code png}
   * @throws IllegalArgumentException if there are no schemes or no workers, a byte count is null
   *     or negative, or the size is not positive
   * @throws IOException if the file cannot be written
   */
  public static Path workerLoadBars(Path png, String title,
      Map<String, Map<String, Long>> bytesByWorkerPerScheme, int width, int height)
      throws IOException {
    checkNotEmpty(bytesByWorkerPerScheme, "bytesByWorkerPerScheme");
    TreeSet<String> workers = new TreeSet<>(WORKER_ORDER);
    for (Map<String, Long> m : bytesByWorkerPerScheme.values()) {
      workers.addAll(m.keySet());
    }
    if (workers.isEmpty()) {
      throw new IllegalArgumentException("no worker served anything in any of the schemes "
          + bytesByWorkerPerScheme.keySet());
    }
    CategoryChart chart = categoryChart(title, "worker", "MB served", width, height);
    if (workers.size() > MAX_HORIZONTAL_LABELS) {
      chart.getStyler().setXAxisLabelRotation(90);
    }
    List<String> xs = new ArrayList<>(workers);
    for (Map.Entry<String, Map<String, Long>> e : bytesByWorkerPerScheme.entrySet()) {
      List<Double> ys = new ArrayList<>();
      for (String w : xs) {
        Long b = e.getValue().getOrDefault(w, 0L);
        if (b == null || b < 0) {
          throw new IllegalArgumentException("bytes served by worker " + w + " in scheme "
              + e.getKey() + " must be >= 0, got " + b);
        }
        ys.add(b / BYTES_PER_MB);
      }
      chart.addSeries(e.getKey(), xs, ys);
    }
    return save(chart, png);
  }

  /**
   * Line chart at the default size.
   *
   * @see #lines(Path, String, String, String, Map, int, int)
   */
  public static Path lines(Path png, String title, String xLabel, String yLabel,
      Map<String, double[][]> series) throws IOException {
    return lines(png, title, xLabel, yLabel, series, DEFAULT_WIDTH, DEFAULT_HEIGHT);
  }

  /**
   * Line chart with markers, e.g. latency improvement against object size, or any parameter
   * sweep.
   *
   * @param png output file
   * @param title chart title
   * @param xLabel x-axis title
   * @param yLabel y-axis title
   * @param series name to {@code {xs, ys}}, two arrays of the same non-zero length, finite values
   * @param width image width in pixels
   * @param height image height in pixels
   * @return {@code png}
   * @throws IllegalArgumentException if there are no series, a series is not two equally long
   *     non-empty arrays of finite values, or the size is not positive
   * @throws IOException if the file cannot be written
   */
  public static Path lines(Path png, String title, String xLabel, String yLabel,
      Map<String, double[][]> series, int width, int height) throws IOException {
    checkNotEmpty(series, "series");
    XYChart chart = xyChart(title, xLabel, yLabel, width, height);
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      double[][] xy = e.getValue();
      if (xy == null || xy.length != 2 || xy[0] == null || xy[1] == null || xy[0].length == 0
          || xy[0].length != xy[1].length) {
        throw new IllegalArgumentException("series " + e.getKey()
            + " must be {xs, ys} of equal non-zero length, got " + describe(xy));
      }
      for (double[] axis : xy) {
        for (double v : axis) {
          checkFinite(v, "series " + e.getKey());
        }
      }
      chart.addSeries(e.getKey(), xy[0], xy[1]);
    }
    return save(chart, png);
  }

  /**
   * Medians over repeated runs with their range: one solid line with markers per series through
   * the medians, and the same colour dashed through the minima and the maxima (unlabelled).
   *
   * @param png output file
   * @param title chart title
   * @param xLabel x-axis title
   * @param yLabel y-axis title
   * @param series name to {@code {xs, medians, mins, maxs}}, four arrays of the same non-zero
   *     length, finite values
   * @return {@code png}
   * @throws IllegalArgumentException if there are no series or a series is malformed
   * @throws IOException if the file cannot be written
   */
  public static Path linesWithRange(Path png, String title, String xLabel, String yLabel,
      Map<String, double[][]> series) throws IOException {
    checkNotEmpty(series, "series");
    XYChart chart = xyChart(title, xLabel, yLabel, DEFAULT_WIDTH, DEFAULT_HEIGHT);
    java.awt.Color[] colours = chart.getStyler().getSeriesColors();
    int i = 0;
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      double[][] v = e.getValue();
      if (v == null || v.length != 4 || v[0] == null || v[0].length == 0) {
        throw new IllegalArgumentException("series " + e.getKey()
            + " must be {xs, medians, mins, maxs}, got " + describe(v));
      }
      for (double[] axis : v) {
        if (axis == null || axis.length != v[0].length) {
          throw new IllegalArgumentException("series " + e.getKey()
              + " must be four arrays of equal length, got " + describe(v));
        }
        for (double x : axis) {
          checkFinite(x, "series " + e.getKey());
        }
      }
      java.awt.Color colour = colours[i++ % colours.length];
      org.knowm.xchart.XYSeries median = chart.addSeries(e.getKey(), v[0], v[1]);
      median.setMarkerColor(colour);
      median.setLineColor(colour);
      String[] bounds = {" min", " max"};
      for (int b = 0; b < 2; b++) {
        org.knowm.xchart.XYSeries bound = chart.addSeries(e.getKey() + bounds[b], v[0], v[2 + b]);
        bound.setMarker(SeriesMarkers.NONE);
        bound.setLineColor(colour);
        bound.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
        bound.setShowInLegend(false);
      }
    }
    return save(chart, png);
  }

  /**
   * One bar per category at the default size.
   *
   * @see #bars(Path, String, String, Map, int, int)
   */
  public static Path bars(Path png, String title, String yLabel, Map<String, Double> values)
      throws IOException {
    return bars(png, title, yLabel, values, DEFAULT_WIDTH, DEFAULT_HEIGHT);
  }

  /**
   * One labelled bar per category, in the map's order, e.g. λ per scheme.
   *
   * @param png output file
   * @param title chart title
   * @param yLabel y-axis title
   * @param values category to value; finite
   * @param width image width in pixels
   * @param height image height in pixels
   * @return {@code png}
   * @throws IllegalArgumentException if there are no values, one is null or not finite, or the
   *     size is not positive
   * @throws IOException if the file cannot be written
   */
  public static Path bars(Path png, String title, String yLabel, Map<String, Double> values,
      int width, int height) throws IOException {
    checkNotEmpty(values, "values");
    List<String> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    for (Map.Entry<String, Double> e : values.entrySet()) {
      Double v = e.getValue();
      if (v == null) {
        throw new IllegalArgumentException("value of " + e.getKey() + " is null");
      }
      checkFinite(v, "value of " + e.getKey());
      xs.add(e.getKey());
      ys.add(v);
    }
    CategoryChart chart = categoryChart(title, null, yLabel, width, height);
    // One series needs no legend; the numbers on the bars save reading them off the axis.
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setLabelsVisible(true);
    if (xs.size() > MAX_HORIZONTAL_LABELS) {
      chart.getStyler().setXAxisLabelRotation(90);
    }
    chart.addSeries(yLabel == null ? "value" : yLabel, xs, ys);
    return save(chart, png);
  }

  private static int compareNatural(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      if (isDigit(a.charAt(i)) && isDigit(b.charAt(j))) {
        int si = i;
        int sj = j;
        while (i < a.length() && isDigit(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && isDigit(b.charAt(j))) {
          j++;
        }
        int c = new BigInteger(a.substring(si, i)).compareTo(new BigInteger(b.substring(sj, j)));
        if (c != 0) {
          return c;
        }
      } else {
        int c = Character.compare(a.charAt(i++), b.charAt(j++));
        if (c != 0) {
          return c;
        }
      }
    }
    int c = Integer.compare(a.length() - i, b.length() - j);
    return c != 0 ? c : a.compareTo(b);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static XYChart xyChart(String title, String xLabel, String yLabel, int width,
      int height) {
    checkSize(width, height);
    XYChart chart = new XYChartBuilder().width(width).height(height).title(text(title))
        .xAxisTitle(text(xLabel)).yAxisTitle(text(yLabel)).build();
    style(chart.getStyler());
    return chart;
  }

  private static CategoryChart categoryChart(String title, String xLabel, String yLabel,
      int width, int height) {
    checkSize(width, height);
    CategoryChart chart = new CategoryChartBuilder().width(width).height(height)
        .title(text(title)).xAxisTitle(text(xLabel)).yAxisTitle(text(yLabel)).build();
    style(chart.getStyler());
    return chart;
  }

  /** Axis numbers must not change with the machine's locale (decimal commas). */
  private static void style(AxesChartStyler styler) {
    styler.setLocale(Locale.ROOT);
  }

  /** Writes to the stream rather than the file name, which XChart would give a ".png" suffix. */
  private static Path save(Chart<?, ?> chart, Path png) throws IOException {
    Path parent = png.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (OutputStream out = Files.newOutputStream(png)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
    }
    return png;
  }

  /** XChart draws "" as no title; null is taken to mean the same. */
  private static String text(String s) {
    return s == null ? "" : s;
  }

  private static void checkSize(int width, int height) {
    if (width <= 0 || height <= 0) {
      throw new IllegalArgumentException(
          "image size must be positive, got " + width + "x" + height);
    }
  }

  private static void checkNotEmpty(Map<String, ?> map, String name) {
    Objects.requireNonNull(map, name);
    if (map.isEmpty()) {
      throw new IllegalArgumentException(name + " must have at least one series, got " + map);
    }
  }

  private static void checkFinite(double v, String what) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException(what + " must be finite, got " + v);
    }
  }

  private static String describe(double[][] xy) {
    if (xy == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < xy.length; i++) {
      sb.append(i > 0 ? ", " : "").append(xy[i] == null ? "null" : xy[i].length + " values");
    }
    return sb.append('}').toString();
  }
}
