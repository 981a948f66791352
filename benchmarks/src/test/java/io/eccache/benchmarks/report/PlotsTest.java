package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlotsTest {

  @TempDir
  Path dir;

  /** Checks the PNG exists under exactly that name, has the size asked for and is not blank. */
  private static void assertPlot(Path png, Path returned, int width, int height)
      throws IOException {
    assertEquals(png, returned);
    assertTrue(Files.isRegularFile(png), png + " missing");
    BufferedImage img = ImageIO.read(png.toFile());
    assertEquals(width, img.getWidth());
    assertEquals(height, img.getHeight());
    Set<Integer> colours = new HashSet<>();
    for (int y = 0; y < img.getHeight(); y++) {
      for (int x = 0; x < img.getWidth(); x++) {
        colours.add(img.getRGB(x, y));
      }
    }
    // Background, plot area and text alone already make more than two; series add more.
    assertTrue(colours.size() > 2, "only " + colours.size() + " colours");
  }

  private static Histogram latencies(long fromMicros, long step, int n) {
    Histogram h = new Histogram(3);
    for (int i = 0; i < n; i++) {
      h.recordValue(fromMicros + i * step);
    }
    return h;
  }

  @Test
  void latencyCdf() throws IOException {
    Map<String, Histogram> series = new LinkedHashMap<>();
    series.put("SR", latencies(2_000, 37, 5_000));
    series.put("EC-Cache", latencies(1_000, 13, 5_000));
    Path png = dir.resolve("cdf.png");
    assertPlot(png, Plots.latencyCdf(png, "read latency", series), 800, 500);
    // Every latency the same: a vertical line, which must not break the axis.
    Path flat = dir.resolve("flat.png");
    assertPlot(flat, Plots.latencyCdf(flat, "flat", Map.of("one", latencies(5_000, 0, 10)),
        640, 480), 640, 480);
  }

  @Test
  void workerLoadBars() throws IOException {
    Map<String, Map<String, Long>> load = new LinkedHashMap<>();
    Map<String, Long> sr = new LinkedHashMap<>();
    Map<String, Long> ec = new LinkedHashMap<>();
    for (int w = 0; w < 12; w++) {
      sr.put("worker-" + w, (w == 3 ? 400L : 100L) * 1_000_000);
      ec.put("worker-" + w, (w == 3 ? 130L : 110L) * 1_000_000);
    }
    sr.remove("worker-7"); // idle under SR: drawn as 0
    load.put("SR", sr);
    load.put("EC-Cache", ec);
    Path png = dir.resolve("nested/dir/load.png");
    assertPlot(png, Plots.workerLoadBars(png, "bytes per worker", load, 1024, 600), 1024, 600);
  }

  @Test
  void lines() throws IOException {
    Map<String, double[][]> series = new LinkedHashMap<>();
    series.put("median", new double[][] {{1, 10, 40, 100}, {1.33, 2.1, 2.64, 5.5}});
    series.put("p99", new double[][] {{1, 10, 40, 100}, {1.25, 3.85, 1.76, 3.0}});
    Path png = dir.resolve("size.png");
    assertPlot(png, Plots.lines(png, "SR/EC by size", "object size (MB)", "SR/EC", series),
        800, 500);
  }

  @Test
  void linesWithRange() throws IOException {
    Map<String, double[][]> series = new LinkedHashMap<>();
    series.put("SR/EC median", new double[][] {{1, 4, 16}, {1.3, 2.4, 3.1}, {1.1, 2.0, 2.5},
        {1.6, 2.9, 3.8}});
    Path png = dir.resolve("improvement.png");
    assertPlot(png, Plots.linesWithRange(png, "SR/EC", "MiB", "SR/EC", series), 800, 500);
    series.put("bad", new double[][] {{1, 2}, {1, 2}, {1}, {1, 2}});
    assertThrows(IllegalArgumentException.class,
        () -> Plots.linesWithRange(png, "SR/EC", "MiB", "SR/EC", series));
  }

  @Test
  void bars() throws IOException {
    Map<String, Double> lambda = new LinkedHashMap<>();
    lambda.put("SR", 43.45);
    lambda.put("EC-Cache", 13.14);
    Path png = dir.resolve("lambda");
    // No ".png" in the name: XChart's file-name API would append one; this must not.
    assertPlot(png, Plots.bars(png, "load imbalance", "λ (%)", lambda), 800, 500);
    assertTrue(Files.notExists(dir.resolve("lambda.png")));
  }

  @Test
  void workersSortWithNumbersAsNumbers() {
    List<String> names = new ArrayList<>(Arrays.asList("worker-10", "worker-2", "10.0.0.10:29999",
        "10.0.0.9:29999", "worker-02", "worker-1", "worker", "w"));
    names.sort(Plots.WORKER_ORDER);
    // 10.0.0.x first ('1' < 'w'); worker-02 and worker-2 are equal as numbers, so string order
    // ("0" < "2") decides and neither is lost in a TreeSet.
    assertEquals(Arrays.asList("10.0.0.9:29999", "10.0.0.10:29999", "w", "worker", "worker-1",
        "worker-02", "worker-2", "worker-10"), names);
  }

  @Test
  void rejectsBadInput() {
    Path png = dir.resolve("bad.png");
    assertThrows(IllegalArgumentException.class, () -> Plots.bars(png, "t", "y", Map.of()));
    assertThrows(IllegalArgumentException.class,
        () -> Plots.bars(png, "t", "y", Map.of("a", Double.NaN)));
    assertThrows(IllegalArgumentException.class,
        () -> Plots.bars(png, "t", "y", Map.of("a", 1.0), 0, 500));
    assertThrows(IllegalArgumentException.class,
        () -> Plots.latencyCdf(png, "t", Map.of("empty", new Histogram(3))));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Plots.lines(png, "t", "x", "y", Map.of("s", new double[][] {{1, 2}, {1}})));
    assertTrue(e.getMessage().contains("{2 values, 1 values}"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Plots.workerLoadBars(png, "t",
        Map.of("SR", Map.of("w1", -1L))));
    assertTrue(e.getMessage().contains("-1"), e.getMessage());
    assertTrue(Files.notExists(png));
  }
}
