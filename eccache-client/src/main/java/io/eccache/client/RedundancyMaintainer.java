package io.eccache.client;

import alluxio.client.file.URIStatus;
import alluxio.exception.status.AbortedException;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.UnimplementedException;
import alluxio.grpc.WorkerNetAddress;
import com.google.common.util.concurrent.RateLimiter;
import io.eccache.client.form.ClientForm;
import io.eccache.client.form.ClientForms;
import io.eccache.client.form.ForwardingFormIo;
import io.eccache.client.form.MaintenanceStep;
import io.eccache.client.form.Maintainer;
import io.eccache.client.form.RedundancyCheck;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LogNodeStatusResponse;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out what the coordinator plans, outside the master: rebuilds splits lost with a worker,
 * writes the extra parities (or copies) a newly popular object gets, and repartitions SP-Cache
 * objects. It runs in any client process (a Spark driver, the {@code eccache} CLI, a dedicated
 * maintenance process); several may run at once, the coordinator leases each task to one.
 *
 * <p>Adding a parity never rewrites the object's other splits: a Cauchy parity row depends only on
 * k and its index, so parity k + j of a (k, r + 1) code equals parity k + j of (k, r). The new
 * split is written next to the others, then one layout update makes it visible. Reads and writes
 * are limited to {@code alluxio.user.eccache.maintenance.bandwidth} bytes per second.
 */
public final class RedundancyMaintainer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RedundancyMaintainer.class);
  private static final int TASKS_PER_PLAN = 16;

  private final ClientContext context;
  private final SplitRebuilder rebuilder;
  /** Writes a form's values anew (a compaction's). */
  private final ObjectWriter writer;
  private final UnderStoreSync underStore;
  private final RateLimiter bandwidth;
  private final LateBindingReader reader;
  private final AtomicLong tasksDone = new AtomicLong();
  private final AtomicLong bytesMoved = new AtomicLong();
  private ScheduledExecutorService loop;
  /** This maintainer as its own steps and a storage form's maintenance steps use it. */
  private final Maintainer maintainer;

  /** The maintainer a step is given: the client's form I/O, and what only maintainers do. */
  private final class StepMaintainer extends ForwardingFormIo implements Maintainer {
    StepMaintainer() {
      super(context.formIo());
    }

    @Override
    public LookupResponse lookup(String key) throws IOException {
      return context.coordinator().lookup(key, true);
    }

    @Override
    public byte[] readObject(LookupResponse lookup) throws IOException {
      try (ObjectReadStream in = ObjectReadStream.cached(context, reader, lookup, 0,
          ObjectReadStream.NO_COPY)) {
        return in.readAll();
      }
    }

    @Override
    public boolean rewrite(String key, byte[] value, String expectedWriteId) throws IOException {
      try {
        writer.put(key, ByteSource.of(value), value.length, PutOptions.defaults(), null,
            expectedWriteId);
        return true;
      } catch (AbortedException replaced) {
        return false; // a user's PUT or delete came first: it wins
      }
    }

    @Override
    public void acquireBandwidth(long bytes) {
      bandwidth.acquire((int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes)));
    }

    @Override
    public long cacheOn(URIStatus status, WorkerNetAddress worker) throws IOException {
      return context.cacheOn(status, worker);
    }

    @Override
    public void uncacheOn(URIStatus status, WorkerNetAddress worker) throws IOException {
      context.uncacheOn(status, worker);
    }
  }

  private RedundancyMaintainer(ClientContext context) {
    this.context = context;
    this.reader = new LateBindingReader(context);
    this.maintainer = new StepMaintainer();
    this.rebuilder = new SplitRebuilder(context, reader);
    this.writer = new ObjectWriter(context, rebuilder);
    this.underStore = new UnderStoreSync(context, reader, writer);
    this.bandwidth = RateLimiter.create(Math.max(1, context.maintenanceBandwidth()));
  }

  /**
   * A maintainer working through {@code client}'s context (its Alluxio context, coordinator client,
   * threads and buffers); closing it leaves the client open.
   */
  public static RedundancyMaintainer create(EcCacheClient client) {
    return new RedundancyMaintainer(client.context());
  }

  /** Asks the coordinator for work and does it; returns the tasks carried out. */
  public int runOnce() throws AlluxioStatusException {
    int done = 0;
    for (MaintenanceTask task : context.coordinator().plan(TASKS_PER_PLAN).getTasksList()) {
      long[] moved = {0};
      ApplyChangeRequest.Builder report = ApplyChangeRequest.newBuilder()
          .setLease(task.getLease());
      try {
        switch (task.getKind()) {
          case ADD_SPLITS:
          case REPAIR:
            writeSplits(task, report, moved);
            break;
          case REPARTITION:
            repartition(task, moved);
            break;
          default:
            // A task of one storage form only (the regional cache's loads and removals).
            MaintenanceStep step = ClientForms.REGISTERED.step(task.getKind()).orElseThrow(
                () -> new IOException("unknown task kind " + task.getKind()
                    + ": this client is older than the coordinator; upgrade it"));
            moved[0] += step.run(task, maintainer, report);
            break;
        }
        report.setBytes(moved[0]);
        context.coordinator().applyChange(report.build());
        done++;
        tasksDone.incrementAndGet();
        ClientMetrics.MAINTENANCE_TASKS.inc();
      } catch (IOException | RuntimeException e) {
        LOG.warn("eccache: {} of '{}' failed: {}", task.getKind(), task.getKey(), e.toString());
        context.coordinator().applyChange(report.setBytes(moved[0]).setFailed(true)
            .setError(String.valueOf(e)).clearCrc32C().build());
      }
      bytesMoved.addAndGet(moved[0]);
    }
    return done;
  }

  /**
   * Scrubs {@code key}: checks the parities its form keeps against a fresh encode of its data
   * (for a packed value, its stripe's cached parities and its log nodes' rows at the stripe's
   * version). Changes nothing.
   *
   * @return the disagreements found, one line each; empty when every parity agrees
   * @throws UnimplementedException when the key's form has no scrub (striped and regional
   *     objects have none yet)
   * @throws IOException when a unit or a parity cannot be read
   */
  public List<String> scrub(String key) throws IOException {
    LookupResponse lookup = context.coordinator().lookup(key, true);
    Optional<RedundancyCheck> check = ClientForms.REGISTERED.of(lookup.getLayout())
        .flatMap(ClientForm::redundancyCheck);
    if (check.isEmpty()) {
      throw new UnimplementedException("'" + key + "' is not kept in a form with a scrub (only"
          + " sealed packed values have one)");
    }
    return check.get().check(lookup, maintainer);
  }

  /**
   * The live log nodes' own status, by address ({@code host:port@boot}): each log's buffered
   * bytes, bytes in its log on disk and disk I/O counts.
   *
   * @throws AlluxioStatusException when the coordinator or a log node does not answer
   */
  public Map<String, LogNodeStatusResponse> logNodeStatus() throws AlluxioStatusException {
    Map<String, LogNodeStatusResponse> status = new TreeMap<>();
    for (String node : context.coordinator().stats().getLogNodesList()) {
      status.put(node, context.logNodes().status(node));
    }
    return status;
  }

  /** Runs {@link #runOnce()} every {@code periodMs} in a background thread until closed. */
  public synchronized RedundancyMaintainer start(long periodMs) {
    if (loop == null) {
      loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "eccache-maintainer");
        t.setDaemon(true);
        return t;
      });
      loop.scheduleWithFixedDelay(() -> {
        try {
          runOnce();
        } catch (AlluxioStatusException | RuntimeException e) {
          LOG.warn("eccache: maintenance round failed; retrying: {}", e.toString());
        }
      }, 0, periodMs, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** Tasks this maintainer carried out. */
  public long tasksDone() {
    return tasksDone.get();
  }

  /** Bytes it read and wrote doing them. */
  public long bytesMoved() {
    return bytesMoved.get();
  }

  @Override
  public synchronized void close() {
    if (loop != null) {
      loop.shutdownNow();
      try {
        loop.awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      loop = null;
    }
  }

  /**
   * Writes the task's splits (new parities or copies, or lost splits rebuilt) from the object's
   * current splits, window by window, each pinned to the worker the coordinator chose.
   */
  private void writeSplits(MaintenanceTask task, ApplyChangeRequest.Builder report, long[] moved)
      throws IOException {
    LookupResponse lookup = maintainer.lookupPlanned(task);
    Layout layout = lookup.getLayout();
    if (task.getKind() == MaintenanceTask.Kind.REPAIR && task.getSplitsCount() == 0) {
      // Too few splits left to decode: store it again from S3.
      underStore.recache(task.getKey(), UnderStoreSync.sameShape(layout), layout.getWriteId());
      moved[0] += 2 * layout.getObjectSize();
      return;
    }
    List<int[]> crcs = rebuilder.write(lookup, task.getSplitsList(),
        task.getWorkersList(), bandwidth, moved);
    if (task.getKind() == MaintenanceTask.Kind.ADD_SPLITS) {
      for (int j = 0; j < task.getSplitsCount(); j++) {
        for (int[] stripe : crcs) {
          report.addCrc32C(stripe[j]);
        }
      }
    }
  }

  /** SP-Cache: stores the object again with the target number of partitions. */
  private void repartition(MaintenanceTask task, long[] moved) throws IOException {
    LookupResponse lookup = maintainer.lookupPlanned(task);
    Layout layout = lookup.getLayout();
    bandwidth.acquire((int) Math.min(Integer.MAX_VALUE, Math.max(1, 2 * layout.getObjectSize())));
    underStore.rewrite(lookup, PutOptions.tuned(SchemeProtos.fromProto(task.getTarget())));
    moved[0] += 2 * layout.getObjectSize();
  }
}
