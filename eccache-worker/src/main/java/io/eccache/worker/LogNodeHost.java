package io.eccache.worker;

import io.eccache.common.proto.LogId;
import io.eccache.common.proto.LogStatus;
import io.eccache.common.proto.UpdateOutcomeResponse;
import io.eccache.lognode.DiskStats;
import io.eccache.lognode.LogNode;
import io.eccache.lognode.LogNodeConfig;
import io.eccache.lognode.UndecidedUpdate;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logs one log node holds: one {@link LogNode} per (packed namespace, parity row), each in its
 * own directory, opened on its first request (recovering what it flushed before a restart).
 */
final class LogNodeHost implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LogNodeHost.class);
  /** A namespace is a key's first path component: a directory name of its own. */
  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._-]{1,200}");

  private final LogNodeSettings settings;
  /** "namespace-row" -> its log. */
  private final Map<String, Opened> logs = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** A log and the id it was opened with. */
  private static final class Opened {
    final LogId id;
    final LogNode node;

    Opened(LogId id, LogNode node) {
      this.id = id;
      this.node = node;
    }
  }

  LogNodeHost(LogNodeSettings settings) {
    this.settings = settings;
  }

  /**
   * The log {@code id} names, opened if it is not yet.
   *
   * @throws IllegalArgumentException for a malformed id, or one whose code or unit size differs
   *     from the log's
   * @throws IllegalStateException once the host is closed
   */
  LogNode log(LogId id) {
    if (closed) {
      throw new IllegalStateException("the log node is stopping");
    }
    if (!NAMESPACE.matcher(id.getNamespace()).matches()) {
      throw new IllegalArgumentException("'" + id.getNamespace() + "' is not a namespace name");
    }
    String name = id.getNamespace() + "-row" + id.getRow();
    Opened opened = logs.computeIfAbsent(name, n -> {
      LogNode node = LogNode.open(LogNodeConfig.builder()
          .directory(settings.directory.resolve(n)).code(id.getDataUnits(), id.getParityUnits())
          .row(id.getRow()).unitSize(id.getUnitSize()).scheme(settings.scheme)
          .bufferBytes(settings.bufferBytes).flushInterval(settings.flushInterval)
          .mergeLogBytes(settings.mergeBytes).fsync(settings.fsync).build());
      LOG.info("eccache log node: opened {} in {} ({}); recovered {}", n, settings.directory,
          settings.scheme, node.recovery());
      return new Opened(id, node);
    });
    if (!opened.id.equals(id)) {
      throw new IllegalArgumentException("log " + name + " holds RS(" + opened.id.getDataUnits()
          + ", " + opened.id.getParityUnits() + ") stripes of " + opened.id.getUnitSize()
          + "-byte units, not RS(" + id.getDataUnits() + ", " + id.getParityUnits() + ") of "
          + id.getUnitSize() + ": the namespace's code changed; give it a new name");
    }
    return opened.node;
  }

  /** The periodic step of every open log: flushes and merges that are due. */
  void maintain() {
    for (Map.Entry<String, Opened> log : logs.entrySet()) {
      try {
        log.getValue().node.maintain();
      } catch (RuntimeException e) {
        // The buffer keeps what was not written; the next step tries again.
        LOG.warn("eccache log node: maintaining {} failed: {}", log.getKey(), e.toString());
      }
    }
  }

  /** What the coordinator says became of an update (UpdateOutcome). */
  interface Outcomes {
    UpdateOutcomeResponse.Outcome of(long stripe, long updateId, long baseVersion)
        throws IOException;
  }

  /**
   * Decides every delta buffered for at least {@code age} without its update's outcome (its
   * writer died, or its notice was lost) as {@code outcomes} says; one still pending stays.
   * Returns how many it decided.
   */
  int resolveUndecided(Duration age, Outcomes outcomes) {
    int decided = 0;
    for (Map.Entry<String, Opened> log : logs.entrySet()) {
      LogNode node = log.getValue().node;
      for (UndecidedUpdate u : node.undecidedOlderThan(age)) {
        try {
          switch (outcomes.of(u.stripe(), u.updateId(), u.baseVersion())) {
            case COMMITTED:
              node.commit(u.stripe(), u.updateId(), u.baseVersion() + 1);
              decided++;
              break;
            case ABORTED:
              node.abort(u.stripe(), u.updateId());
              decided++;
              break;
            default:
              break; // pending: its writer may still decide it
          }
        } catch (IOException | RuntimeException e) {
          LOG.debug("eccache log node: update {} of stripe {} in {} stays undecided: {}",
              u.updateId(), u.stripe(), log.getKey(), e.toString());
        }
      }
    }
    return decided;
  }

  /** Every open log's counters. */
  List<LogStatus> status() {
    List<LogStatus> out = new ArrayList<>();
    for (Opened log : logs.values()) {
      DiskStats disk = log.node.diskStats();
      out.add(LogStatus.newBuilder().setLog(log.id).setScheme(settings.scheme.name())
          .setStripes(log.node.versions().size()).setBufferedBytes(log.node.bufferedBytes())
          .setLogBytes(log.node.logBytes()).setDiskReads(disk.reads())
          .setDiskWrites(disk.writes()).setDiskBytesRead(disk.bytesRead())
          .setDiskBytesWritten(disk.bytesWritten())
          .setUndecided(log.node.undecidedOlderThan(Duration.ZERO).size()).build());
    }
    return out;
  }

  /** Flushes and closes every log; never throws (a worker's stop must go on). */
  @Override
  public void close() {
    closed = true;
    for (Map.Entry<String, Opened> log : logs.entrySet()) {
      try {
        log.getValue().node.close();
      } catch (RuntimeException e) {
        LOG.error("eccache log node: flushing {} on stop failed; what it buffered is lost: {}",
            log.getKey(), e.toString());
      }
    }
    logs.clear();
  }
}
