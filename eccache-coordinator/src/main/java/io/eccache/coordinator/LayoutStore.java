package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.GrpcUtils;
import alluxio.wire.BlockLocation;
import alluxio.wire.FileBlockInfo;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerInfo;
import alluxio.wire.WorkerNetAddress;
import com.google.common.util.concurrent.Striped;
import com.google.protobuf.InvalidProtocolBufferException;
import io.eccache.common.ObjectPaths;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.ListResponse;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.StorageForms;
import io.eccache.coordinator.form.WorkersPort;
import io.eccache.policy.RedundancyPlanner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable state: one layout xattr on each object's directory in Alluxio's namespace (journaled by
 * the FileSystemMaster), and the key locks that serialise every change of one key's layout (commit,
 * markPersisted, delete, dropping or adding splits, the sweep of its directory).
 *
 * <p>Reads parse and validate layouts; {@link #describe} adds every split's file status and live
 * location. It is also what a re-tuning pass sees of the namespace ({@link Retuner.Namespace}).
 */
final class LayoutStore implements Retuner.Namespace {
  private static final Logger LOG = LoggerFactory.getLogger(LayoutStore.class);

  private final NamespacePort ns;
  private final WorkersPort workers;
  private final ObjectPaths paths;
  private final StorageForms forms;
  /** Serialises the layout changes of one key. */
  private final Striped<Lock> keyLocks = Striped.lock(64);

  LayoutStore(NamespacePort ns, WorkersPort workers, ObjectPaths paths, StorageForms forms) {
    this.ns = ns;
    this.workers = workers;
    this.paths = paths;
    this.forms = forms;
  }

  ObjectPaths paths() {
    return paths;
  }

  /** The storage forms, which decide how each object is laid out and described. */
  StorageForms forms() {
    return forms;
  }

  /** The key locks, shared with the sweep. */
  Striped<Lock> keyLocks() {
    return keyLocks;
  }

  /** The namespace the layouts are kept in. */
  NamespacePort namespace() {
    return ns;
  }

  /** Runs {@code call} while holding {@code key}'s lock. */
  <T> T locked(String key, MasterCalls.MasterCall<T> call) throws IOException, AlluxioException {
    Lock lock = keyLocks.get(key);
    lock.lock();
    try {
      return call.call();
    } finally {
      lock.unlock();
    }
  }

  /**
   * As {@link #read}, for a directory that is often missing (a PUT of a new key): a status call on a
   * missing path makes Alluxio ask S3 for it in the background, which this does not.
   */
  Layout readIfPresent(String objectDir) throws IOException, AlluxioException {
    return ns.exists(objectDir) ? read(objectDir) : null;
  }

  /** The committed layout of {@code objectDir}, or null when none. */
  Layout read(String objectDir) throws IOException, AlluxioException {
    try {
      return parse(ns.status(objectDir));
    } catch (FileDoesNotExistException e) {
      return null;
    }
  }

  /** Replaces the layout of {@code objectDir} in one xattr update (call under the key's lock). */
  void write(String objectDir, Layout layout) throws IOException, AlluxioException {
    ns.putXattr(objectDir, ObjectPaths.LAYOUT_XATTR, layout.toByteArray());
  }

  /** Removes the layout of {@code objectDir}, keeping the directory (call under the key's lock). */
  void remove(String objectDir) throws IOException, AlluxioException {
    ns.removeXattr(objectDir, ObjectPaths.LAYOUT_XATTR);
  }

  /** The layout an object directory's status carries, or null when it has none readable. */
  static Layout parse(FileInfo dir) {
    Map<String, byte[]> xattrs = dir.getXAttr();
    byte[] bytes = xattrs == null ? null : xattrs.get(ObjectPaths.LAYOUT_XATTR);
    if (bytes == null || bytes.length == 0) {
      return null; // allocated and never committed, or deleted while a PUT was writing
    }
    try {
      Layout layout = Layout.parseFrom(bytes);
      SchemeProtos.of(layout); // a layout without a valid scheme is unreadable, not an object
      return layout;
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      LOG.error("eccache: unreadable layout on {}: {}", dir.getPath(), e.toString());
      return null;
    }
  }

  /** Committed objects whose key starts with {@code prefix}. */
  ListResponse list(String prefix) throws IOException, AlluxioException {
    ListResponse.Builder response = ListResponse.newBuilder();
    List<FileInfo> objects;
    try {
      objects = ns.list(paths.objectsDirectory(), NamespacePort.Load.NEVER);
    } catch (FileDoesNotExistException nothingYet) {
      return response.build();
    }
    for (FileInfo dir : objects) {
      String key = ObjectPaths.keyOf(dir.getName());
      if (key == null || !key.startsWith(prefix)) {
        continue;
      }
      Layout layout = parse(dir);
      if (layout != null) {
        response.addObjects(layout);
      }
    }
    return response.build();
  }

  /**
   * The committed layout of {@code key} with every split's status and live location: what a
   * lookup costs the master is one getFileInfo of the object's directory (its layout xattr, which
   * no listing of a directory's children carries) and one listStatus of the write's directory.
   */
  LookupResponse.Builder describe(String key) throws IOException, AlluxioException {
    Layout layout = read(paths.objectDirectory(key));
    if (layout == null) {
      throw new NotFoundException("no object '" + key + "' in eccache: PUT it first");
    }
    return describe(layout, liveWorkerIds());
  }

  /** The layout with every split's file status and live location, as its form says. */
  LookupResponse.Builder describe(Layout layout, Set<HostPort> liveWorkers)
      throws IOException, AlluxioException {
    return forms.of(layout).describe(layout, liveWorkers);
  }

  /** The live workers, with the counts and change generation they were taken at. */
  private static final class LiveView {
    final Set<HostPort> ids;
    final int workers;
    final int lost;
    final long generation;
    final long madeNanos;

    LiveView(Set<HostPort> ids, int workers, int lost, long generation, long madeNanos) {
      this.ids = ids;
      this.workers = workers;
      this.lost = lost;
      this.generation = generation;
      this.madeNanos = madeNanos;
    }
  }

  /** The longest a live-worker view is used without the block master's counts moving. */
  private static final long LIVE_VIEW_MAX_AGE_NANOS = 1_000_000_000L;
  private final java.util.concurrent.atomic.AtomicLong workerChanges =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile LiveView liveView;

  /**
   * Called on every worker change the block master reports (lost, found again, registered,
   * removed): the next lookup makes a new live-worker view.
   */
  void workersChanged() {
    workerChanges.incrementAndGet();
  }

  /**
   * The live workers' host and RPC port, from a view kept across lookups instead of the block
   * master's worker list per lookup: made again when a worker change was reported
   * ({@link #workersChanged}), when the block master's live or lost worker count moved (caught
   * even without a listener), or after {@value #LIVE_VIEW_MAX_AGE_NANOS} ns at most.
   */
  Set<HostPort> liveWorkerIds() throws UnavailableException {
    long changes = workerChanges.get();
    int count = workers.liveCount();
    int lost = workers.lostCount();
    long now = System.nanoTime();
    LiveView view = liveView;
    if (view != null && view.generation == changes && view.workers == count
        && view.lost == lost && now - view.madeNanos < LIVE_VIEW_MAX_AGE_NANOS) {
      return view.ids;
    }
    Set<HostPort> live = new HashSet<>();
    for (WorkerInfo w : workers.live()) {
      live.add(HostPort.of(w.getAddress()));
    }
    Set<HostPort> ids = Set.copyOf(live);
    liveView = new LiveView(ids, count, lost, changes, now);
    return ids;
  }

  @Override
  public List<WorkerNetAddress> liveWorkers() throws UnavailableException {
    List<WorkerNetAddress> live = new ArrayList<>();
    for (WorkerInfo w : workers.live()) {
      live.add(w.getAddress());
    }
    return live;
  }

  @Override
  public List<Retuner.Placed> objects() throws IOException, AlluxioException {
    Set<HostPort> liveIds = liveWorkerIds();
    List<Retuner.Placed> placed = new ArrayList<>();
    for (Layout layout : list("").getObjectsList()) {
      if (!forms.of(layout).retuned()) {
        continue;
      }
      LookupResponse described;
      try {
        described = describe(layout, liveIds).build();
      } catch (FileDoesNotExistException replacedMeanwhile) {
        continue;
      }
      List<WorkerNetAddress> locations = new ArrayList<>();
      for (Split split : described.getSplitsList()) {
        locations.add(split.getLive() ? GrpcUtils.fromProto(split.getWorker()) : null);
      }
      placed.add(new Retuner.Placed(layout, locations));
    }
    return placed;
  }

  /**
   * Removes surplus parities or copies: the layout first (readers stop using them), then files.
   * Returns how many splits went; none when the object changed since it was planned.
   */
  @Override
  public int drop(RedundancyPlanner.Drop drop) throws IOException, AlluxioException {
    String objectDir = paths.objectDirectory(drop.key);
    return locked(drop.key, () -> {
      Layout current = read(objectDir);
      RedundancyScheme scheme = current == null ? null : SchemeProtos.of(current);
      if (current == null || !current.getWriteId().equals(drop.writeId)
          || scheme.splits() <= drop.to.splits() || scheme.kind() != drop.to.kind()) {
        return 0;
      }
      StripeGeometry g = StripeGeometry.of(current);
      int keep = drop.to.splits();
      Layout smaller = current.toBuilder().setScheme(SchemeProtos.toProto(drop.to)).clearCrc32C()
          .addAllCrc32C(current.getCrc32CList().subList(0, g.checksums(keep))).build();
      write(objectDir, smaller);
      for (int i = keep; i < scheme.splits(); i++) {
        deleteQuietly(current.getDirectory() + "/" + scheme.splitName(i));
      }
      return scheme.splits() - keep;
    });
  }

  /** Removes {@code dir} from Alluxio (only), logging a failure. */
  void deleteQuietly(String dir) {
    try {
      ns.delete(dir, NamespacePort.Removal.ALLUXIO_ONLY);
    } catch (IOException | AlluxioException e) {
      LOG.warn("eccache: could not remove replaced write {}: {}", dir, e.toString());
    }
  }
}
