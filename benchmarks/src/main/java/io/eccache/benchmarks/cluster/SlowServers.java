package io.eccache.benchmarks.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slow-server mode: workers chosen from the seed are frozen (SIGSTOP) for
 * {@link BenchSettings#slowShare} of every {@link #PERIOD_MS} and resumed (SIGCONT) for the rest,
 * for the whole measured phase of every scheme alike. Such a worker answers everything, late: its
 * reads arrive at a fraction of the others' pace, in bursts, like a server whose CPU or disk is
 * shared (the paper's stragglers), where a capped link ({@code stragglers}) is a slow network.
 * {@link #close} stops the cycle and always leaves the workers running.
 */
final class SlowServers implements AutoCloseable {
  /** One freeze-and-resume cycle. */
  static final long PERIOD_MS = 100;
  private static final Logger LOG = LoggerFactory.getLogger(SlowServers.class);

  private final BenchCluster cluster;
  private final List<Integer> slowed = new ArrayList<>();
  private final long frozenNanos;
  private final Thread cycle;
  private volatile boolean stop;

  /** Starts the cycle on {@code s.slowServers} workers not in {@code exclude}. */
  SlowServers(BenchCluster cluster, BenchSettings s, List<Integer> exclude) {
    this.cluster = cluster;
    slowed.addAll(cluster.choose(s.slowServers, exclude, new Random(s.seed * 19 + 7)));
    this.frozenNanos = TimeUnit.MILLISECONDS.toNanos(Math.round(PERIOD_MS * s.slowShare));
    this.cycle = new Thread(this::run, "eccache-bench-slow-servers");
    cycle.setDaemon(true);
    cycle.start();
  }

  /** The slowed workers' hosts. */
  List<String> hosts() {
    List<String> hosts = new ArrayList<>();
    for (int i : slowed) {
      hosts.add(cluster.workerHost(i));
    }
    return hosts;
  }

  private void run() {
    long period = TimeUnit.MILLISECONDS.toNanos(PERIOD_MS);
    try {
      while (!stop) {
        long began = System.nanoTime();
        for (int i : slowed) {
          cluster.freezeWorker(i);
        }
        TimeUnit.NANOSECONDS.sleep(Math.max(0, frozenNanos - (System.nanoTime() - began)));
        for (int i : slowed) {
          cluster.thawWorker(i);
        }
        TimeUnit.NANOSECONDS.sleep(Math.max(0, period - (System.nanoTime() - began)));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      LOG.warn("the slow-server cycle stopped: {}", e.toString());
    } finally {
      thawAll();
    }
  }

  private void thawAll() {
    for (int i : slowed) {
      try {
        cluster.thawWorker(i);
      } catch (IOException e) {
        LOG.warn("could not resume worker {}: {}", i, e.toString());
      }
    }
  }

  /** Stops the cycle and waits until every slowed worker runs again. */
  @Override
  public void close() throws InterruptedException {
    stop = true;
    cycle.join(10_000);
    thawAll();
  }
}
