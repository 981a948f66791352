package io.eccache.common;

/**
 * Where an object lives in Alluxio's namespace: {@code <root>/objects/<encoded key>/} (see
 * {@link ObjectKeys#encode(String)}: one component per key, injective) holds the
 * committed layout as an xattr, and one directory per write, {@code <write id>/}, with the split files
 * named by {@link RedundancyScheme#splitName(int)}. A new PUT writes a new directory and commit switches the
 * layout to it in one xattr update, so readers see the old object or the new one, never a mix.
 *
 * <p>The directory is named by the key's full encoding, however long: it is in Alluxio's namespace
 * only, which limits no name's length, and never persisted to the under store (the under-store
 * copy's name is hashed instead, {@link UnderStorePaths#objectName(String)}). So a long key is
 * kept whole here, and listings decode it from here.
 */
public final class ObjectPaths {
  /** The xattr on an object's directory holding its serialized {@code Layout}. */
  public static final String LAYOUT_XATTR = "eccache.layout";

  private final String root;

  public ObjectPaths(String root) {
    this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
  }

  /** eccache's own directory ({@code alluxio.master.eccache.root}). */
  public String rootDirectory() {
    return root.isEmpty() ? "/" : root;
  }

  /** The directory of all objects. */
  public String objectsDirectory() {
    return root + "/objects";
  }

  /** The directory of the object {@code key}. */
  public String objectDirectory(String key) {
    return objectsDirectory() + "/" + ObjectKeys.encode(key);
  }

  /** The directory of one write of {@code key}. */
  public String writeDirectory(String key, String writeId) {
    return objectDirectory(key) + "/" + writeId;
  }

  /**
   * The file of split {@code index} of {@code layout}: in the write's directory, or, for a regional
   * object, where its region holds it.
   */
  public static String splitPath(io.eccache.common.proto.Layout layout, int index) {
    return layout.getSplitPathsCount() > 0 ? layout.getSplitPaths(index)
        : layout.getDirectory() + "/" + SchemeProtos.of(layout).splitName(index);
  }

  /** The namespace of a key: its first path component ("" for a key without '/'). */
  public static String namespaceOf(String key) {
    int slash = key.indexOf('/');
    return slash < 0 ? "" : key.substring(0, slash);
  }

  /** The key an object directory's name stands for, or null if no key is named so. */
  public static String keyOf(String directoryName) {
    return ObjectKeys.decode(directoryName);
  }

  /**
   * Where replaced and deleted writes wait out their grace period: renamed here (block ids and so
   * readers' open statuses stay valid), removed for good once the period is over.
   */
  public String retiredDirectory() {
    return root + "/retired";
  }
}
