package io.eccache.isal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads eccache's JNI library and the ISA-L shared library it links against, once per class loader.
 *
 * <p>Where from, in order: the directory named by the system property {@value #LIBRARY_PATH_PROPERTY}
 * (for a library built or installed by hand); otherwise the copies inside the isal-jni jar at
 * {@code /native/<os>-<arch>/}, extracted to a temporary directory, loaded (ISA-L first, so the JNI
 * library's dependency is already resolved), and deleted again. Nothing is installed system-wide:
 * a machine with only a JDK can use the native coder.
 *
 * <p>Loading never throws: when it fails, {@link #isAvailable()} is false and
 * {@link #loadingFailureReason()} says why and what to do about it.
 */
public final class IsalLibrary {
  /** System property: a directory holding {@value #JNI_LIBRARY} (and {@value #ISAL_LIBRARY}). */
  public static final String LIBRARY_PATH_PROPERTY = "eccache.isal.library.path";

  static final String JNI_LIBRARY = "libeccache-isal-jni.so";
  static final String ISAL_LIBRARY = "libisal.so.2";

  private static final String FAILURE;
  private static final String SOURCE;

  static {
    String[] outcome = load();
    SOURCE = outcome[0];
    FAILURE = outcome[1];
  }

  private IsalLibrary() {}

  /** Whether the native coder can be used in this JVM. */
  public static boolean isAvailable() {
    return FAILURE == null;
  }

  /** Why the native library did not load, with how to fix it; {@code null} when it loaded. */
  public static String loadingFailureReason() {
    return FAILURE;
  }

  /** Where the native library was loaded from; {@code null} when it did not load. */
  public static String source() {
    return SOURCE;
  }

  /** The resource directory for this platform, e.g. {@code native/linux-x86_64}; null if unsupported. */
  static String platformDirectory() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
      return "native/linux-x86_64";
    }
    return null;
  }

  /** Returns {source, failure reason}: exactly one of them is non-null. */
  private static String[] load() {
    String override = System.getProperty(LIBRARY_PATH_PROPERTY);
    try {
      String source;
      if (override != null && !override.isEmpty()) {
        source = loadFromDirectory(Paths.get(override));
      } else {
        String dir = platformDirectory();
        if (dir == null) {
          return new String[] {null, "no native library is built for " + System.getProperty("os.name")
              + "/" + System.getProperty("os.arch") + " (only linux-x86_64); set -D"
              + LIBRARY_PATH_PROPERTY + "=<dir> to a directory with " + JNI_LIBRARY};
        }
        source = loadFromJar(dir);
      }
      // Prove the symbols resolve now, not on the first encode.
      IsalNative.generateCauchyMatrix(new byte[2], 2, 1);
      return new String[] {source, null};
    } catch (IOException | LinkageError | SecurityException e) {
      return new String[] {null, e.getClass().getSimpleName() + ": " + e.getMessage()};
    }
  }

  private static String loadFromDirectory(Path dir) throws IOException {
    Path jni = dir.resolve(JNI_LIBRARY);
    if (!Files.isRegularFile(jni)) {
      throw new IOException(jni + " does not exist (named by -D" + LIBRARY_PATH_PROPERTY
          + "); point it at the directory holding " + JNI_LIBRARY + " or unset it to use the jar's copy");
    }
    Path isal = dir.resolve(ISAL_LIBRARY);
    if (Files.isRegularFile(isal)) {
      System.load(isal.toAbsolutePath().toString());
    }
    System.load(jni.toAbsolutePath().toString());
    return jni.toAbsolutePath().toString();
  }

  private static String loadFromJar(String dir) throws IOException {
    String jniResource = "/" + dir + "/" + JNI_LIBRARY;
    if (IsalLibrary.class.getResource(jniResource) == null) {
      throw new IOException("resource " + jniResource + " is not on the classpath: this isal-jni jar"
          + " was built without its native library. Rebuild on linux-x86_64 with libisal-dev installed"
          + " (apt-get install -y libisal-dev; mvn package), or set -D" + LIBRARY_PATH_PROPERTY);
    }
    Path tmp = Files.createTempDirectory("eccache-isal-");
    try {
      Path isal = extract("/" + dir + "/" + ISAL_LIBRARY, tmp.resolve(ISAL_LIBRARY));
      if (isal != null) {
        System.load(isal.toString());
      }
      System.load(extract(jniResource, tmp.resolve(JNI_LIBRARY)).toString());
    } finally {
      // Once mapped, the files are no longer needed; removing them leaves nothing behind in /tmp.
      try (var files = Files.list(tmp)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(f);
        }
      }
      Files.deleteIfExists(tmp);
    }
    return "jar:" + jniResource;
  }

  private static Path extract(String resource, Path target) throws IOException {
    try (InputStream in = IsalLibrary.class.getResourceAsStream(resource)) {
      if (in == null) {
        return null;
      }
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      return target.toAbsolutePath();
    }
  }
}
