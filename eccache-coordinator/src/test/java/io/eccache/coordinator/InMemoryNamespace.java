package io.eccache.coordinator;

import alluxio.AlluxioURI;
import alluxio.exception.AccessControlException;
import alluxio.exception.DirectoryNotEmptyException;
import alluxio.exception.FileAlreadyExistsException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.InvalidPathException;
import alluxio.grpc.TtlAction;
import alluxio.security.authorization.AccessControlList;
import alluxio.security.authorization.DefaultAccessControlList;
import alluxio.security.authorization.Mode;
import alluxio.wire.BlockInfo;
import alluxio.wire.BlockLocation;
import alluxio.wire.FileBlockInfo;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerInfo;
import alluxio.wire.WorkerNetAddress;
import io.eccache.common.UnderStorePaths;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.WorkersPort;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Alluxio's namespace, its under store and its workers in memory, for unit tests of the
 * coordinator's rules: the semantics the coordinator relies on (a directory deleted only if empty
 * when asked so, rename that fails onto an existing path, xattrs replaced one name at a time, an
 * under store seen only on a load, Unix permission bits with {@code root} as the superuser), none
 * of the costs. Times come from the given clock. Thread-safe (one lock), as the master is.
 *
 * <p>A split file is created empty and incomplete; {@link #write} plays its writer completing it
 * on a worker. {@link #calls} counts namespace changes, for tests that bound them.
 */
public final class InMemoryNamespace implements NamespacePort, WorkersPort, AccessPort {
  /** The superuser; every other user's primary group is its own name. */
  static final String ROOT = "root";

  private final Clock clock;
  private final TreeMap<String, Node> nodes = new TreeMap<>();
  /** Under-store files: path -> length. */
  private final TreeMap<String, Long> underStore = new TreeMap<>();
  private final List<WorkerInfo> live = new ArrayList<>();
  private int lost;
  private long nextId = 1;
  private final Map<String, Integer> calls = new HashMap<>();
  private boolean failBeyondFileNames;

  public InMemoryNamespace(Clock clock) {
    this.clock = clock;
    nodes.put("/", new Node(true, ROOT, (short) 0755, nextId++, 0));
  }

  // ---- test controls ----

  /** Adds a live worker at {@code host}. */
  synchronized WorkerNetAddress addWorker(String host) {
    WorkerNetAddress address = new WorkerNetAddress().setHost(host).setRpcPort(29999)
        .setDataPort(29999);
    live.add(new WorkerInfo().setId(live.size() + lost + 1L).setAddress(address));
    return address;
  }

  /** The worker at {@code host} is lost: no longer live, and its blocks are gone. */
  synchronized void loseWorker(String host) {
    live.removeIf(w -> w.getAddress().getHost().equals(host));
    lost++;
    for (Node n : nodes.values()) {
      if (n.worker != null && n.worker.getHost().equals(host)) {
        n.worker = null;
      }
    }
  }

  /** Completes the file at {@code path}: {@code length} bytes in one block on {@code worker}. */
  synchronized void write(String path, long length, WorkerNetAddress worker)
      throws FileDoesNotExistException {
    Node n = node(path);
    n.completed = true;
    n.length = length;
    n.worker = worker;
    n.modifiedMs = clock.millis();
  }

  /**
   * Makes the under store fail every question about a name longer than a file name, as an S3
   * server keeping objects as files does (s3proxy answers 500), or answer it again.
   */
  synchronized void failNamesBeyondFileNames(boolean fail) {
    failBeyondFileNames = fail;
  }

  /** Puts a file in the under store only (as another tool would). */
  synchronized void putInUnderStore(String path, long length) {
    underStore.put(path, length);
  }

  synchronized boolean inUnderStore(String path) {
    return underStore.containsKey(path);
  }

  /** The paths below {@code dir} (not itself), sorted. */
  synchronized List<String> pathsUnder(String dir) {
    List<String> found = new ArrayList<>();
    for (String p : nodes.tailMap(dir, false).keySet()) {
      if (!p.startsWith(dir.equals("/") ? "/" : dir + "/")) {
        break;
      }
      found.add(p);
    }
    return found;
  }

  /** How many times {@code operation} (a method name of {@link NamespacePort}) was called. */
  synchronized int calls(String operation) {
    return calls.getOrDefault(operation, 0);
  }

  // ---- NamespacePort ----

  @Override
  public synchronized boolean exists(String path) {
    count("exists");
    return nodes.containsKey(path);
  }

  @Override
  public synchronized FileInfo status(String path, Load load) throws FileDoesNotExistException {
    count("status");
    if (!nodes.containsKey(path) && load != Load.NEVER && underStore.containsKey(path)) {
      load(path);
    }
    return info(path, node(path));
  }

  @Override
  public synchronized List<FileInfo> list(String dir, Load load)
      throws FileDoesNotExistException {
    count("list");
    if (load != Load.NEVER) {
      for (String p : new TreeSet<>(underStore.keySet())) {
        if (parent(p).equals(dir) && !nodes.containsKey(p)) {
          load(p);
        }
      }
    }
    Node d = node(dir);
    if (!d.folder) {
      return List.of(info(dir, d));
    }
    List<FileInfo> children = new ArrayList<>();
    for (String p : pathsUnder(dir)) {
      if (parent(p).equals(dir)) {
        children.add(info(p, nodes.get(p)));
      }
    }
    return children;
  }

  @Override
  public synchronized void putXattr(String path, String name, byte[] value)
      throws FileDoesNotExistException {
    count("putXattr");
    node(path).xattrs.put(name, value.clone());
  }

  @Override
  public synchronized void removeXattr(String path, String name)
      throws FileDoesNotExistException {
    count("removeXattr");
    node(path).xattrs.remove(name);
  }

  @Override
  public synchronized void createDirectory(String path, NewDirectory options)
      throws FileAlreadyExistsException, FileDoesNotExistException, InvalidPathException {
    count("createDirectory");
    Node existing = nodes.get(path);
    if (existing != null) {
      if (options.allowExists && existing.folder) {
        return;
      }
      throw new FileAlreadyExistsException(path + " already exists");
    }
    makeParents(path, options.recursive);
    String owner = options.owner != null ? options.owner : ROOT;
    Node d = new Node(true, owner, options.mode >= 0 ? options.mode : (short) 0755, nextId++,
        clock.millis());
    d.persisted = options.throughToUnderStore;
    nodes.put(path, d);
  }

  @Override
  public synchronized FileInfo createFile(String path, NewFile options)
      throws FileAlreadyExistsException, FileDoesNotExistException, InvalidPathException {
    count("createFile");
    Node there = nodes.get(path);
    if (there != null && (!options.replaces || there.folder)) {
      throw new FileAlreadyExistsException(path + " already exists");
    }
    makeParents(path, true);
    Node f = new Node(false, options.owner != null ? options.owner : ROOT, options.mode,
        nextId++, clock.millis());
    nodes.put(path, f);
    return info(path, f);
  }

  @Override
  public synchronized void setMode(String path, short mode, String owner)
      throws FileDoesNotExistException {
    count("setMode");
    Node n = node(path);
    n.mode = mode;
    if (owner != null) {
      n.owner = owner;
    }
  }

  @Override
  public synchronized void rename(String from, String to)
      throws FileDoesNotExistException, FileAlreadyExistsException {
    count("rename");
    node(from);
    if (nodes.containsKey(to)) {
      throw new FileAlreadyExistsException("cannot rename " + from + " onto " + to
          + ": it exists");
    }
    node(parent(to));
    List<String> moving = new ArrayList<>(pathsUnder(from));
    moving.add(0, from);
    for (String p : moving) {
      String moved = to + p.substring(from.length());
      Node n = nodes.remove(p);
      nodes.put(moved, n);
      if (n.persisted && underStore.containsKey(p)) {
        underStore.put(moved, underStore.remove(p));
      }
    }
  }

  @Override
  public synchronized void delete(String path, Removal how)
      throws FileDoesNotExistException, DirectoryNotEmptyException {
    count("delete");
    Node n = node(path);
    List<String> below = pathsUnder(path);
    if (how != Removal.ALLUXIO_ONLY && !below.isEmpty()) {
      throw new DirectoryNotEmptyException(path + " is not empty");
    }
    for (String p : below) {
      nodes.remove(p);
    }
    nodes.remove(path);
    if (how == Removal.EVERYWHERE && !n.folder) {
      underStore.remove(path);
    }
  }

  @Override
  public synchronized void free(String path) throws FileDoesNotExistException {
    count("free");
    node(path).worker = null;
  }

  @Override
  public synchronized boolean isFileAnywhere(String path) throws IOException {
    count("isFileAnywhere");
    Node n = nodes.get(path);
    if (n == null && failBeyondFileNames && UnderStorePaths.beyondFileNames(path)) {
      throw new IOException("500 Server Error: File name too long: " + path);
    }
    return n != null ? !n.folder : underStore.containsKey(path);
  }

  @Override
  public String masterUser() {
    return ROOT;
  }

  // ---- WorkersPort ----

  @Override
  public synchronized List<WorkerInfo> live() {
    return new ArrayList<>(live);
  }

  @Override
  public synchronized int liveCount() {
    return live.size();
  }

  @Override
  public synchronized int lostCount() {
    return lost;
  }

  // ---- AccessPort: Unix bits, root the superuser, no groups beyond the user's own ----

  @Override
  public synchronized boolean isDirectory(String path) {
    Node n = nodes.get(path);
    return n != null && n.folder;
  }

  @Override
  public synchronized void check(String user, String path, Mode.Bits bits)
      throws AccessControlException, FileDoesNotExistException {
    for (AlluxioURI up = new AlluxioURI(path).getParent(); up != null; up = up.getParent()) {
      allow(user, up.getPath(), Mode.Bits.EXECUTE);
    }
    allow(user, path, bits);
  }

  @Override
  public boolean isAdministrator(String user) {
    return user.equals(ROOT);
  }

  @Override
  public String primaryGroup(String user) {
    return user;
  }

  // ---- the rest ----

  private void allow(String user, String path, Mode.Bits bits)
      throws AccessControlException, FileDoesNotExistException {
    Node n = node(path);
    if (user.equals(ROOT)) {
      return;
    }
    Mode.Bits granted = user.equals(n.owner) ? Mode.extractOwnerBits(n.mode)
        : Mode.extractOtherBits(n.mode);
    if (!granted.imply(bits)) {
      throw new AccessControlException("Permission denied: user=" + user + ", access=" + bits
          + ", path=" + path);
    }
  }

  private void count(String operation) {
    calls.merge(operation, 1, Integer::sum);
  }

  private void load(String path) throws FileDoesNotExistException {
    String dir = parent(path);
    if (!nodes.containsKey(dir)) {
      try {
        makeParents(path, true);
      } catch (InvalidPathException e) {
        throw new FileDoesNotExistException(path + ": " + e.getMessage());
      }
    }
    Node f = new Node(false, ROOT, (short) 0644, nextId++, clock.millis());
    f.completed = true;
    f.persisted = true;
    f.length = underStore.get(path);
    nodes.put(path, f);
  }

  private void makeParents(String path, boolean recursive)
      throws FileDoesNotExistException, InvalidPathException {
    String dir = parent(path);
    Node d = nodes.get(dir);
    if (d == null) {
      if (!recursive) {
        throw new FileDoesNotExistException("parent of " + path + " does not exist");
      }
      makeParents(dir, true);
      nodes.put(dir, new Node(true, ROOT, (short) 0755, nextId++, clock.millis()));
    } else if (!d.folder) {
      throw new InvalidPathException(dir + " is a file, not a directory");
    }
  }

  private Node node(String path) throws FileDoesNotExistException {
    Node n = nodes.get(path);
    if (n == null) {
      throw new FileDoesNotExistException("Path \"" + path + "\" does not exist.");
    }
    return n;
  }

  private static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
  }

  private static FileInfo info(String path, Node n) {
    FileInfo info = new FileInfo().setPath(path).setName(new AlluxioURI(path).getName())
        .setFolder(n.folder).setFileId(n.id).setCompleted(n.folder || n.completed)
        .setLength(n.length).setCreationTimeMs(n.createdMs)
        .setLastModificationTimeMs(n.modifiedMs).setOwner(n.owner).setGroup(n.owner)
        .setMode(n.mode).setPersisted(n.persisted).setXAttr(new HashMap<>(n.xattrs))
        // What Alluxio's own statuses always carry (its proto conversion needs them).
        .setUfsPath("").setUfsFingerprint("").setTtlAction(TtlAction.FREE)
        .setPersistenceState(n.persisted ? "PERSISTED" : "NOT_PERSISTED")
        .setAcl(AccessControlList.EMPTY_ACL)
        .setDefaultAcl(DefaultAccessControlList.EMPTY_DEFAULT_ACL)
        .setMediumTypes(new HashSet<>()).setBlockSizeBytes(n.length);
    List<FileBlockInfo> blocks = new ArrayList<>();
    if (!n.folder && n.completed) {
      List<BlockLocation> at = n.worker == null ? List.of()
          : List.of(new BlockLocation().setWorkerAddress(n.worker));
      blocks.add(new FileBlockInfo().setBlockInfo(
          new BlockInfo().setBlockId(n.id << 24).setLength(n.length).setLocations(at)));
    }
    List<Long> ids = new ArrayList<>();
    blocks.forEach(b -> ids.add(b.getBlockInfo().getBlockId()));
    return info.setFileBlockInfos(blocks).setBlockIds(ids);
  }

  private static final class Node {
    final boolean folder;
    String owner;
    short mode;
    final long id;
    final long createdMs;
    long modifiedMs;
    boolean completed;
    boolean persisted;
    long length;
    WorkerNetAddress worker;
    final Map<String, byte[]> xattrs = new HashMap<>();

    Node(boolean folder, String owner, short mode, long id, long createdMs) {
      this.folder = folder;
      this.owner = owner;
      this.mode = mode;
      this.id = id;
      this.createdMs = createdMs;
      this.modifiedMs = createdMs;
    }
  }
}
