package io.eccache.localcluster;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What a cluster directory records about its processes and ports, in {@code <dir>/cluster.properties}:
 * so a later command (stop, status, the next start) finds processes it did not start. A process is
 * known by its pid and start time, so a pid the system has since given to another process is never
 * taken for one of the cluster's.
 */
public final class ClusterState {
  /** The file's name inside the cluster directory. */
  public static final String FILE = "cluster.properties";

  private final Map<String, String> values = new TreeMap<>();
  private final Map<String, ProcessRecord> processes = new LinkedHashMap<>();

  /** One child of the cluster: its name (s3, master, worker-N), pid, start time and address. */
  public static final class ProcessRecord {
    private final String name;
    private final long pid;
    private final long startedMillis;
    private final String address;

    ProcessRecord(String name, long pid, long startedMillis, String address) {
      this.name = name;
      this.pid = pid;
      this.startedMillis = startedMillis;
      this.address = address;
    }

    /** s3, master or worker-N. */
    public String name() {
      return name;
    }

    /** The pid it had when it was started. */
    public long pid() {
      return pid;
    }

    /** Where it serves: the S3 endpoint, the master's host:port, a worker's host. */
    public String address() {
      return address;
    }

    /** The process, if it is still alive: same pid and same start time (a reused pid is not it). */
    public Optional<ProcessHandle> live() {
      return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> startedMillis < 0
          || h.info().startInstant().map(Instant::toEpochMilli).map(t -> t == startedMillis)
              .orElse(true));
    }

    /** Whether {@link #live()} finds it. */
    public boolean isAlive() {
      return live().isPresent();
    }
  }

  /** The state in {@code dir}, or empty when no cluster was ever started there. */
  public static Optional<ClusterState> read(Path dir) throws IOException {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(dir.resolve(FILE), StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    ClusterState state = new ClusterState();
    List<String> names = new ArrayList<>(p.stringPropertyNames());
    Collections.sort(names);
    for (String key : names) {
      if (!key.startsWith("process.")) {
        state.values.put(key, p.getProperty(key));
      }
    }
    for (String name : p.getProperty("processes", "").split(",")) {
      if (name.isEmpty()) {
        continue;
      }
      String prefix = "process." + name + ".";
      try {
        state.processes.put(name, new ProcessRecord(name,
            Long.parseLong(p.getProperty(prefix + "pid", "-1")),
            Long.parseLong(p.getProperty(prefix + "started", "-1")),
            p.getProperty(prefix + "address", "")));
      } catch (NumberFormatException e) {
        throw new IOException(dir.resolve(FILE) + " is damaged (" + prefix + "*: " + e.getMessage()
            + "): stop the cluster's processes by hand (see its logs/) and remove the file", e);
      }
    }
    return Optional.of(state);
  }

  /** Writes the state to {@code dir} atomically (a reader sees the old or the new file whole). */
  public void write(Path dir) throws IOException {
    Properties p = new Properties();
    p.putAll(values);
    p.setProperty("processes", String.join(",", processes.keySet()));
    for (ProcessRecord r : processes.values()) {
      String prefix = "process." + r.name + ".";
      p.setProperty(prefix + "pid", String.valueOf(r.pid));
      p.setProperty(prefix + "started", String.valueOf(r.startedMillis));
      p.setProperty(prefix + "address", r.address);
    }
    Path tmp = dir.resolve(FILE + ".tmp");
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      p.store(out, "eccache cluster: processes and ports (written by ProcessCluster)");
    }
    Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  /** Records a started child (replacing an earlier record of the same name). */
  void record(String name, ProcessHandle handle, String address) {
    long started = handle.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
    processes.put(name, new ProcessRecord(name, handle.pid(), started, address));
  }

  void set(String key, Object value) {
    values.put(key, String.valueOf(value));
  }

  /** A recorded value (ports: master.port, master.web.port, s3.port; workers, worker.memory.bytes). */
  public Optional<String> get(String key) {
    return Optional.ofNullable(values.get(key));
  }

  /** A recorded integer, or {@code otherwise}. */
  public long getLong(String key, long otherwise) {
    try {
      return get(key).map(Long::parseLong).orElse(otherwise);
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  /** Every recorded child, in the order they were started (s3, master, workers). */
  public List<ProcessRecord> processes() {
    return new ArrayList<>(processes.values());
  }
}
