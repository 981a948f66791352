package io.eccache.coordinator;

import alluxio.wire.WorkerNetAddress;
import io.eccache.common.ObjectPaths;
import io.eccache.common.RegionMounts;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.StripeGeometry;
import io.eccache.common.UnderStorePaths;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.Split;
import io.eccache.coordinator.form.FormContext;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.StorageForm;
import io.eccache.coordinator.form.StorageForms;
import io.eccache.coordinator.form.packed.LogNodes;
import io.eccache.coordinator.form.packed.PackedForm;
import io.eccache.coordinator.form.regional.RegionalForm;
import io.eccache.coordinator.form.striped.NamespaceSchemes;
import io.eccache.coordinator.form.striped.SchemeChooser;
import io.eccache.coordinator.form.striped.StripedForm;
import io.eccache.policy.PopularityTracker;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The coordinator's version rules (layouts, writes, the sweep) wired over an
 * {@link InMemoryNamespace}, on a clock that moves only when a test advances it; as the master
 * wires them, with small numbers. Security is on: callers are named users, {@code root} the
 * superuser. Close it to stop its executor.
 */
final class RulesFixture implements AutoCloseable {
  static final long ALLOCATION_TIMEOUT_MS = 600_000;
  static final long GRACE_MS = 60_000;
  static final long CELL_SIZE = 1024;
  /** Objects below this are stored as copies. */
  static final long SMALL = 1000;

  final AdjustableClock clock =
      new AdjustableClock(Clock.fixed(Instant.ofEpochMilli(1_000_000_000), ZoneOffset.UTC));
  final InMemoryNamespace ns = new InMemoryNamespace(clock);
  final ObjectPaths paths = new ObjectPaths("/.eccache");
  final UnderStorePaths ufsPaths = new UnderStorePaths("/");
  final CoordinatorMetrics metrics = new CoordinatorMetrics();
  final LayoutStore layouts;
  final NamespaceSweeper sweeper;
  final WriteSessions writes;
  final SweepHeartbeat sweep;
  final MaintenanceQueue queue;
  /** The log nodes packed namespaces use (none until a test announces one). */
  final LogNodes logNodes = new LogNodes(clock, 10_000);
  /** The packed form, when the fixture has packed namespaces; else null. */
  PackedForm packedForm;
  private final ExecutorService executor = Executors.newCachedThreadPool();

  /** Regions of the regional namespace {@code agar}, when a fixture has them. */
  static final String REGIONS =
      "near=/eccache-regions/near@10ms,mid=/eccache-regions/mid@30ms,far=/eccache-regions/far@90ms";

  /** Striped objects only. */
  RulesFixture(int workers) {
    this(workers, false);
  }

  /**
   * @param regional whether the namespace {@code agar} is regional (RS(2, 1) over
   *     {@link #REGIONS}), its cache holding no split
   */
  RulesFixture(int workers, boolean regional) {
    this(workers, regional, "");
  }

  /**
   * @param regional as above
   * @param packed the packed namespaces ({@code PackedForm}), "" for none; their log nodes are
   *     {@link #logNodes}, announced by the tests
   */
  RulesFixture(int workers, boolean regional, String packed) {
    for (int i = 1; i <= workers; i++) {
      ns.addWorker("10.0.0." + i);
    }
    UnderStoreCopies underStore = new UnderStoreCopies(ns, ufsPaths);
    Random random = new Random(7);
    SchemeChooser chooser = new SchemeChooser(NamespaceSchemes.parse(""),
        RedundancyScheme.erasureCoded(3, 2), SMALL, 2);
    List<StorageForm> registered = new ArrayList<>();
    if (regional) {
      FormContext context = new CoordinatorFormContext(ns, ns, random, clock, paths,
          this::layoutStore, this::maintenanceQueue, this::namespaceSweeper, () -> executor);
      registered.add(new RegionalForm(context, RegionMounts.parse(REGIONS), "agar",
          "rs-2-1", "none", 0, 0));
    }
    StripedForm striped = new StripedForm(chooser, ns, random);
    if (!packed.isEmpty()) {
      FormContext context = new CoordinatorFormContext(ns, ns, random, clock, paths,
          this::layoutStore, this::maintenanceQueue, this::namespaceSweeper, () -> executor);
      packedForm = new PackedForm(context, packed, striped, logNodes, ALLOCATION_TIMEOUT_MS);
      registered.add(packedForm);
    }
    registered.add(striped);
    StorageForms forms = new StorageForms(registered);
    layouts = new LayoutStore(ns, ns, paths, forms);
    sweeper = new NamespaceSweeper(ns, paths, underStore, layouts.keyLocks(), GRACE_MS,
        ALLOCATION_TIMEOUT_MS, forms);
    KeyAccess access = new KeyAccess(ns, ufsPaths);
    writes = new WriteSessions(layouts, ns, underStore, sweeper, new PopularityTracker(0.5),
        metrics, clock, access, new PrivateDirectories(ns, paths, ufsPaths),
        ALLOCATION_TIMEOUT_MS, CELL_SIZE, random, () -> executor);
    sweep = new SweepHeartbeat(writes, sweeper, clock);
    queue = new MaintenanceQueue(layouts, metrics, clock, ALLOCATION_TIMEOUT_MS);
  }

  /** Allocates a write of {@code size} bytes of {@code key} by {@code user}. */
  AllocateResponse allocate(String user, String key, long size) throws Exception {
    return writes.allocate(Caller.named(user),
        AllocateRequest.newBuilder().setKey(key).setObjectSize(size).build());
  }

  /**
   * Plays the writer: completes every split file of {@code write} on its worker (creating it
   * first where the writer creates its files).
   */
  void writeSplits(AllocateResponse write) throws Exception {
    Layout layout = write.getLayout();
    for (Split split : write.getSplitsList()) {
      if (!write.getSplitFilesCreated()) {
        ns.createFile(split.getPath(),
            new NamespacePort.NewFile(layout.getSplitSize(), (short) 0644, null, null));
      }
      ns.write(split.getPath(), layout.getSplitSize(), worker(split));
    }
  }

  /** The commit request of a written {@code write}, with zero checksums of the right count. */
  CommitRequest.Builder commitOf(AllocateResponse write) {
    Layout layout = write.getLayout();
    StripeGeometry g = StripeGeometry.of(layout);
    CommitRequest.Builder commit = CommitRequest.newBuilder().setKey(layout.getKey())
        .setWriteId(layout.getWriteId());
    for (int i = 0; i < g.checksums(write.getSplitsCount()); i++) {
      commit.addCrc32C(0);
    }
    return commit;
  }

  /** A whole PUT: allocate, write, commit. */
  Layout put(String user, String key, long size) throws Exception {
    AllocateResponse write = allocate(user, key, size);
    writeSplits(write);
    writes.commit(Caller.named(user), commitOf(write).build());
    return layouts.read(paths.objectDirectory(key));
  }

  /** The committed layout of {@code key}, or null. */
  Layout committed(String key) throws Exception {
    return layouts.read(paths.objectDirectory(key));
  }

  private static WorkerNetAddress worker(Split split) {
    return new WorkerNetAddress().setHost(split.getWorker().getHost())
        .setRpcPort(split.getWorker().getRpcPort()).setDataPort(split.getWorker().getDataPort());
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }

  private LayoutStore layoutStore() {
    return layouts;
  }

  private MaintenanceQueue maintenanceQueue() {
    return queue;
  }

  private NamespaceSweeper namespaceSweeper() {
    return sweeper;
  }
}
