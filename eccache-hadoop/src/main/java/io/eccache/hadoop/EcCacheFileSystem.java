package io.eccache.hadoop;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.PermissionDeniedException;
import io.eccache.client.EcCacheClient;
import io.eccache.client.PutOptions;
import io.eccache.client.SeekableObjectStream;
import io.eccache.client.WriteMode;
import io.eccache.common.ClientKeys;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * eccache as a Hadoop {@link FileSystem}, for {@code eccache://} paths: Spark's
 * {@code spark.read.parquet("eccache:///tables/t")} and {@code df.write}, and {@code hadoop fs}.
 *
 * <p><b>Paths.</b> {@code eccache://HOST:PORT/KEY} names object {@code KEY} on the cluster whose
 * master is {@code HOST:PORT}; {@code eccache:///KEY} takes the master from Alluxio's configuration
 * (alluxio-site.properties in {@code $ALLUXIO_CONF_DIR}, the class path or {@code -Dalluxio.*}),
 * and any {@code alluxio.*} key in the Hadoop configuration (e.g. Spark's
 * {@code spark.hadoop.alluxio.master.hostname}) overrides it, as Alluxio's own {@code alluxio://}
 * file system does.
 *
 * <p><b>Object-store semantics</b>, as S3A: every object is a file, its key the path without the
 * leading '/'. A directory is a key prefix ending in '/' that some object starts with; {@link
 * #mkdirs} stores an empty marker object {@code "dir/"} so an empty directory exists too. Listings
 * are one level of the prefix. A file becomes visible, whole, when its output stream closes
 * (written to a local buffer file until then: {@value #BUFFER_DIR}). {@link #rename} copies and
 * then deletes, object by object: it is <b>not atomic</b> (a reader may see both names, or for a
 * directory some objects moved and others not, and a failure half way leaves both); Spark's
 * commit protocol works with it (see docs/spark.md). Checksums, permissions, owners, times,
 * replication and append are not kept.
 *
 * <p>Settings (Hadoop configuration): {@value #SCHEME_KEY} (e.g. {@code rs-10-1},
 * {@code replica-3}; default: the coordinator decides and tunes), {@value #WRITE_MODE}
 * ({@code CACHE_ONLY}, {@code THROUGH} or {@code ASYNC}; default {@code CACHE_ONLY}),
 * {@value #BUFFER_DIR} and {@value #BLOCK_SIZE} (the block size reported to split planners).
 */
public class EcCacheFileSystem extends FileSystem {
  /** The URI scheme. */
  public static final String SCHEME = "eccache";
  /** Redundancy scheme of the objects this file system writes, e.g. {@code rs-10-1}. */
  public static final String SCHEME_KEY = "fs.eccache.put.scheme";
  /** Write mode of the objects this file system writes: CACHE_ONLY, THROUGH or ASYNC. */
  public static final String WRITE_MODE = "fs.eccache.put.write.mode";
  /** Local directory for the buffer files of files being written. */
  public static final String BUFFER_DIR = "fs.eccache.buffer.dir";
  /** The block size reported in file statuses (split planning only). */
  public static final String BLOCK_SIZE = "fs.eccache.block.size";

  private URI uri;
  private EcCacheClient client;
  private PutOptions putOptions;
  private java.nio.file.Path bufferDir;
  private long blockSize;
  private Path workingDirectory;

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public void initialize(URI name, org.apache.hadoop.conf.Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    String authority = name.getAuthority();
    uri = URI.create(SCHEME + "://" + (authority == null ? "" : authority) + "/");
    workingDirectory = new Path(uri.toString());
    blockSize = conf.getLongBytes(BLOCK_SIZE, 64L << 20);
    bufferDir = Paths.get(conf.getTrimmed(BUFFER_DIR, System.getProperty("java.io.tmpdir")));
    putOptions = putOptions(conf);
    client = EcCacheClient.create(alluxioConfiguration(name, conf));
  }

  /** Alluxio's configuration, then {@code alluxio.*} keys from Hadoop's, then the URI's master. */
  static InstancedConfiguration alluxioConfiguration(URI name,
      org.apache.hadoop.conf.Configuration conf) {
    InstancedConfiguration alluxio = Configuration.copyGlobal();
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix("alluxio.").entrySet()) {
      String key = "alluxio." + e.getKey();
      if (!PropertyKey.isValid(key)) {
        throw new IllegalArgumentException("unknown Alluxio property '" + key + "' in the Hadoop"
            + " configuration (set for eccache://); check its spelling");
      }
      alluxio.set(PropertyKey.fromString(key), conf.get(key));
    }
    if (!alluxio.isSetByUser(ClientKeys.LAYOUT_CACHE_TTL)) {
      // getFileStatus asks the coordinator each time; a cached layout could pair a new file's
      // length with the previous version's bytes (a reader seeking to a footer by length) until
      // the TTL ends. A file system keeps status and bytes from the same version: no cache,
      // unless the user sets the TTL (for files never overwritten while read).
      alluxio.set(ClientKeys.LAYOUT_CACHE_TTL, "0");
    }
    if (name.getHost() != null) {
      alluxio.set(PropertyKey.MASTER_HOSTNAME, name.getHost());
      if (name.getPort() != -1) {
        alluxio.set(PropertyKey.MASTER_RPC_PORT, name.getPort());
      }
    }
    return alluxio;
  }

  private static PutOptions putOptions(org.apache.hadoop.conf.Configuration conf) {
    String scheme = conf.getTrimmed(SCHEME_KEY, "");
    PutOptions options = scheme.isEmpty() ? PutOptions.defaults() : PutOptions.parse(scheme);
    String mode = conf.getTrimmed(WRITE_MODE, "");
    if (!mode.isEmpty()) {
      try {
        options = options.writeMode(WriteMode.valueOf(mode.toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(WRITE_MODE + " is '" + mode
            + "': use CACHE_ONLY, THROUGH or ASYNC", e);
      }
    }
    return options;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDirectory;
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDirectory = makeQualified(dir);
  }

  /**
   * A refusal as Hadoop reports one ({@code AccessControlException}, which Spark and the Hadoop
   * shell print as such), naming the path; the message is Alluxio's, with the user and the mode.
   */
  private static AccessControlException refused(Path f, PermissionDeniedException e) {
    AccessControlException refused = new AccessControlException("Permission denied: " + f + ": "
        + e.getMessage());
    refused.initCause(e);
    return refused;
  }

  /** The object key a path names: its path without the leading '/' ("" for the root). */
  String key(Path path) {
    String p = makeQualified(path).toUri().getPath();
    return p.startsWith("/") ? p.substring(1) : p;
  }

  private Path path(String key) {
    // Built from parts, so characters a URI string would misread (':', '#', '%', ' ') stay the key's.
    return new Path(uri.getScheme(), uri.getAuthority(), "/" + key);
  }

  /** Whether {@code key} is an object (a file). */
  private boolean isFile(String key) throws IOException {
    try {
      client.stat(key);
      return true;
    } catch (NotFoundException e) {
      return false;
    }
  }

  /** The objects under directory {@code key} ("" for the root), markers included. */
  private SortedMap<String, Long> under(String key) throws AlluxioStatusException {
    return client.sizes(key.isEmpty() ? "" : key + "/");
  }

  private FileStatus file(String key, long size) {
    return new FileStatus(size, false, 1, blockSize, 0, path(key));
  }

  private FileStatus directory(String key) {
    return new FileStatus(0, true, 1, blockSize, 0, path(key));
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    try {
      return statusOf(f);
    } catch (PermissionDeniedException e) {
      throw refused(f, e);
    }
  }

  private FileStatus statusOf(Path f) throws IOException {
    String key = key(f);
    if (key.isEmpty()) {
      return directory(key);
    }
    try {
      return file(key, client.stat(key).size());
    } catch (NotFoundException notAFile) {
      if (!under(key).isEmpty()) {
        return directory(key);
      }
      throw new FileNotFoundException("no such file or directory: " + f);
    }
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    try {
      return openChecked(f, bufferSize);
    } catch (PermissionDeniedException e) {
      throw refused(f, e);
    }
  }

  private FSDataInputStream openChecked(Path f, int bufferSize) throws IOException {
    String key = key(f);
    SeekableObjectStream in;
    try {
      if (key.isEmpty()) {
        throw new NotFoundException("the root");
      }
      in = client.openStream(key);
    } catch (NotFoundException e) {
      if (key.isEmpty() || !under(key).isEmpty()) {
        throw new FileNotFoundException("cannot open " + f + ": it is a directory");
      }
      throw new FileNotFoundException("cannot open " + f + ": no such file");
    }
    return new FSDataInputStream(new EcCacheInputStream(in, statistics));
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress)
      throws IOException {
    String key = key(f);
    if (key.isEmpty() || !under(key).isEmpty()) {
      throw new FileAlreadyExistsException("cannot create " + f + ": it is a directory");
    }
    if (!overwrite && isFile(key)) {
      throw new FileAlreadyExistsException("cannot create " + f + ": it exists (overwrite=false)");
    }
    Path parent = f.getParent();
    if (parent != null && !key(parent).isEmpty() && isFile(key(parent))) {
      throw new ParentNotDirectoryException("cannot create " + f + ": " + parent + " is a file");
    }
    return new FSDataOutputStream(new EcCacheOutputStream(client, key, putOptions, bufferDir),
        statistics);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
      java.util.EnumSet<org.apache.hadoop.fs.CreateFlag> flags, int bufferSize, short replication,
      long blockSize, Progressable progress) throws IOException {
    return create(f, permission, flags.contains(org.apache.hadoop.fs.CreateFlag.OVERWRITE),
        bufferSize, replication, blockSize, progress);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    throw new UnsupportedOperationException("eccache objects are immutable: append is not"
        + " supported; write a new object (" + f + ")");
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    try {
      return renameChecked(src, dst);
    } catch (PermissionDeniedException e) {
      throw refused(src, e);
    }
  }

  private boolean renameChecked(Path src, Path dst) throws IOException {
    String from = key(src);
    String to = key(dst);
    if (from.isEmpty()) {
      return false; // the root cannot move
    }
    FileStatus source;
    try {
      source = getFileStatus(src);
    } catch (FileNotFoundException e) {
      return false;
    }
    if (from.equals(to)) {
      return source.isFile();
    }
    if (!to.isEmpty() && to.startsWith(from + "/")) {
      return false; // into itself
    }
    FileStatus target = status(to);
    if (target != null && target.isDirectory()) {
      to = to.isEmpty() ? src.getName() : to + "/" + src.getName();
      target = status(to);
    } else if (target == null) {
      Path parent = dst.getParent();
      FileStatus p = parent == null ? null : status(key(parent));
      if (parent != null && !key(parent).isEmpty() && (p == null || p.isFile())) {
        return false; // HDFS's rule: the destination's parent must be a directory
      }
    }
    if (target != null) {
      return false; // never replaces an existing file or directory
    }
    if (source.isFile()) {
      copy(from, to);
      client.delete(from);
    } else {
      SortedMap<String, Long> objects = under(from);
      for (String key : objects.keySet()) {
        copy(key, to + key.substring(from.length()));
      }
      for (String key : objects.keySet()) {
        client.delete(key);
      }
    }
    keepParent(from);
    return true;
  }

  /** The status of {@code key}, or null if there is nothing there. */
  private FileStatus status(String key) throws IOException {
    try {
      return getFileStatus(path(key));
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  private void copy(String from, String to) throws IOException {
    try (SeekableObjectStream in = client.openStream(from)) {
      client.put(to, in, in.size(), putOptions);
    }
  }

  /**
   * Keeps the parent directory of a removed {@code key} there, as a marker, when it was the last
   * object in it (a directory exists only through its objects).
   */
  private void keepParent(String key) throws IOException {
    int slash = key.lastIndexOf('/');
    if (slash > 0) {
      String parent = key.substring(0, slash);
      if (under(parent).isEmpty()) {
        client.put(parent + "/", new byte[0], putOptions);
      }
    }
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    try {
      return deleteChecked(f, recursive);
    } catch (PermissionDeniedException e) {
      throw refused(f, e);
    }
  }

  private boolean deleteChecked(Path f, boolean recursive) throws IOException {
    String key = key(f);
    if (key.isEmpty()) {
      SortedMap<String, Long> all = under(key);
      if (!all.isEmpty() && !recursive) {
        throw new PathIsNotEmptyDirectoryException(f.toString());
      }
      return false; // the root itself stays; its objects are not deleted through "rm -r /"
    }
    if (client.delete(key)) {
      keepParent(key);
      return true;
    }
    SortedMap<String, Long> objects = under(key);
    if (objects.isEmpty()) {
      return false;
    }
    if (!recursive && (objects.size() > 1 || !objects.containsKey(key + "/"))) {
      throw new PathIsNotEmptyDirectoryException(f + " is a directory with files in it");
    }
    for (String object : objects.keySet()) {
      client.delete(object);
    }
    keepParent(key);
    return true;
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    try {
      return listChecked(f);
    } catch (PermissionDeniedException e) {
      throw refused(f, e);
    }
  }

  private FileStatus[] listChecked(Path f) throws IOException {
    String key = key(f);
    FileStatus self = getFileStatus(f);
    if (self.isFile()) {
      return new FileStatus[] {self};
    }
    String prefix = key.isEmpty() ? "" : key + "/";
    Map<String, FileStatus> children = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : client.sizes(prefix).entrySet()) {
      String rest = e.getKey().substring(prefix.length());
      int slash = rest.indexOf('/');
      if (rest.isEmpty()) {
        continue; // this directory's own marker
      }
      if (slash < 0) {
        children.put(rest, file(e.getKey(), e.getValue()));
      } else if (slash > 0) {
        children.putIfAbsent(rest.substring(0, slash),
            directory(prefix + rest.substring(0, slash)));
      }
    }
    List<FileStatus> list = new ArrayList<>(children.values());
    return list.toArray(new FileStatus[0]);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    String key = key(f);
    if (key.isEmpty()) {
      return true;
    }
    for (Path p = f; p != null && !key(p).isEmpty(); p = p.getParent()) {
      if (isFile(key(p))) {
        throw p == f ? new FileAlreadyExistsException("cannot make directory " + f
            + ": it is a file") : new ParentNotDirectoryException("cannot make directory " + f
            + ": " + p + " is a file");
      }
    }
    if (under(key).isEmpty()) {
      client.put(key + "/", new byte[0], putOptions);
    }
    return true;
  }

  @Override
  public long getDefaultBlockSize() {
    return blockSize;
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      if (client != null) {
        client.close();
      }
    }
  }
}
