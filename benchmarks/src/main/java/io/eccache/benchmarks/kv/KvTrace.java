package io.eccache.benchmarks.kv;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

/**
 * A key-value trace: the load phase's inserts and the run phase's requests, replayed the same way
 * against every scheme. Its file is the LogECMem artifact's format, one {@code INSERT|READ|UPDATE
 * key} line per request, with comment lines: {@code # load} and {@code # run} mark the phases
 * (a file without them, as the artifact's, is all run phase) and a first {@code # } line says how
 * it was made.
 */
public final class KvTrace {
  private static final String LOAD = "# load";
  private static final String RUN = "# run";

  private final String description;
  private final List<KvOp> load;
  private final List<KvOp> run;

  /**
   * @param description how the trace was made
   * @param load the load phase's requests (inserts)
   * @param run the run phase's requests
   */
  public KvTrace(String description, List<KvOp> load, List<KvOp> run) {
    this.description = description;
    this.load = Collections.unmodifiableList(new ArrayList<>(load));
    this.run = Collections.unmodifiableList(new ArrayList<>(run));
  }

  /** How the trace was made (a trace file's first comment). */
  public String description() {
    return description;
  }

  /** The load phase's requests, in order. */
  public List<KvOp> load() {
    return load;
  }

  /** The run phase's requests, in order. */
  public List<KvOp> run() {
    return run;
  }

  /** The keys the load phase inserts, in its order. */
  public List<String> loadedKeys() {
    return load.stream().map(KvOp::key).collect(java.util.stream.Collectors.toList());
  }

  /** How many run-phase requests are of {@code kind}. */
  public long count(KvOp.Kind kind) {
    return run.stream().filter(op -> op.kind() == kind).count();
  }

  /** Writes the trace to {@code file}. */
  public void write(Path file) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
      out.write("# " + description.replace('\n', ' ') + "\n" + LOAD + "\n");
      for (KvOp op : load) {
        out.write(op.line());
        out.write('\n');
      }
      out.write(RUN + "\n");
      for (KvOp op : run) {
        out.write(op.line());
        out.write('\n');
      }
    }
  }

  /**
   * Reads a trace file: this class's, or the artifact's (no phase markers: all run phase).
   *
   * @throws IllegalArgumentException naming the file and line of a line that is not a request
   */
  public static KvTrace read(Path file) throws IOException {
    List<KvOp> load = new ArrayList<>();
    List<KvOp> run = new ArrayList<>();
    String description = file.getFileName().toString();
    List<KvOp> into = run;
    int number = 0;
    try (Stream<String> lines = Files.lines(file, StandardCharsets.US_ASCII)) {
      for (String line : (Iterable<String>) lines::iterator) {
        number++;
        String text = line.strip();
        if (text.isEmpty()) {
          continue;
        }
        if (text.equals(LOAD)) {
          into = load;
        } else if (text.equals(RUN)) {
          into = run;
        } else if (text.startsWith("#")) {
          if (number == 1) {
            description = text.substring(1).strip();
          }
        } else {
          into.add(parse(text, file, number));
        }
      }
    }
    return new KvTrace(description, load, run);
  }

  private static KvOp parse(String text, Path file, int number) {
    String[] parts = text.split("\\s+");
    KvOp.Kind kind = null;
    for (KvOp.Kind k : KvOp.Kind.values()) {
      if (k.name().equals(parts[0])) {
        kind = k;
      }
    }
    if (kind == null || parts.length != 2) {
      throw new IllegalArgumentException(file + ", line " + number + ": '" + text + "' is not a"
          + " request: give INSERT, READ or UPDATE and a key, e.g. 'READ user42'");
    }
    return new KvOp(kind, parts[1]);
  }
}
