package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * One simulator study: the runs it makes (one configuration per point), the schemes each run compares,
 * and the paper's figures to print beside ours. Immutable.
 */
public final class SimPreset {
  private final String name;
  private final String figure;
  private final String paper;
  private final String sweep;
  private final Map<String, Run> runs;
  private final String notes;
  private final Double[] paperRow;

  /** One point of a study: a configuration and the schemes simulated on it, each on its own. */
  public static final class Run {
    private final SimulationConfig config;
    private final List<ComparedScheme> schemes;

    /**
     * @param config the configuration
     * @param schemes the schemes to compare, each simulated separately; not empty
     */
    public Run(SimulationConfig config, List<ComparedScheme> schemes) {
      this.config = Objects.requireNonNull(config, "config");
      if (schemes.isEmpty()) {
        throw new IllegalArgumentException("a run needs at least one scheme");
      }
      this.schemes = List.copyOf(schemes);
    }

    /** @return the configuration */
    public SimulationConfig config() {
      return config;
    }

    /** @return the schemes compared */
    public List<ComparedScheme> schemes() {
      return schemes;
    }
  }

  /**
   * @param name directory name under the output directory, e.g. {@code paper}
   * @param figure the figures it counts against, for the summary's title
   * @param paper what the papers report, for the summary
   * @param sweep the x axis of a sweep (e.g. {@code servers}), or "" when the runs are not a sweep
   * @param runs runs in order, keyed by their label (a number for a sweep); not empty
   * @param notes what the reader must know about this study's setup, for the summary
   * @param paperRow the papers' values in the columns of {@link SimReport#RATIO_COLUMNS}, null where
   *     they give none
   */
  public SimPreset(String name, String figure, String paper, String sweep, Map<String, Run> runs,
      String notes, Double... paperRow) {
    this.name = Objects.requireNonNull(name, "name");
    this.figure = Objects.requireNonNull(figure, "figure");
    this.paper = Objects.requireNonNull(paper, "paper");
    this.sweep = Objects.requireNonNull(sweep, "sweep");
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("preset " + name + " has no runs");
    }
    this.runs = Collections.unmodifiableMap(new LinkedHashMap<>(runs));
    this.notes = Objects.requireNonNull(notes, "notes");
    if (paperRow.length != SimReport.RATIO_COLUMNS.size()) {
      throw new IllegalArgumentException("paperRow needs " + SimReport.RATIO_COLUMNS.size()
          + " values (null where unknown) but had " + paperRow.length);
    }
    this.paperRow = paperRow.clone();
  }

  /**
   * Simulates every run, each over several seeds (placements, learning passes and request sequences).
   *
   * @param mode each scheme alone (the default) or interleaved
   * @param repeats seeds per run, at least 1: repeat i uses the run's seed + i
   * @param adjust applied to every run's configuration first (the command line's knobs)
   * @param progress receives one line per repeat simulated
   * @return by run label (in order), per repeat, each scheme's result (in the run's order)
   * @throws IllegalArgumentException if repeats is below 1 or a run cannot be set up
   */
  public Map<String, List<Map<ComparedScheme, SimulationResult>>> simulate(SimMode mode, int repeats,
      UnaryOperator<SimulationConfig> adjust, Consumer<String> progress) {
    if (repeats < 1) {
      throw new IllegalArgumentException("repeats must be >= 1 but was " + repeats);
    }
    Map<String, List<Map<ComparedScheme, SimulationResult>>> results = new LinkedHashMap<>();
    for (Map.Entry<String, Run> run : runs.entrySet()) {
      SimulationConfig base = adjust.apply(run.getValue().config());
      List<Map<ComparedScheme, SimulationResult>> byRepeat = new ArrayList<>(repeats);
      for (int i = 0; i < repeats; i++) {
        long started = System.nanoTime();
        SimulationConfig config = base.toBuilder().seed(base.seed() + i).build();
        byRepeat.add(Simulator.simulate(config, run.getValue().schemes(), mode));
        progress.accept(String.format(Locale.ROOT, "sim %s / %s / seed %d (%s): %.1f s", name,
            run.getKey(), config.seed(), mode.label(), (System.nanoTime() - started) / 1e9));
      }
      results.put(run.getKey(), byRepeat);
    }
    return results;
  }

  /** @return the directory name */
  public String name() {
    return name;
  }

  /** @return the figures it counts against */
  public String figure() {
    return figure;
  }

  /** @return the papers' numbers */
  public String paper() {
    return paper;
  }

  /** @return the sweep's axis label, or "" */
  public String sweep() {
    return sweep;
  }

  /** @return the runs by label, in order; unmodifiable */
  public Map<String, Run> runs() {
    return runs;
  }

  /** @return the papers' values by ratio column, null where unknown; a copy */
  public Double[] paperRow() {
    return paperRow.clone();
  }

  /** @return setup notes for the summary */
  public String notes() {
    return notes;
  }
}
