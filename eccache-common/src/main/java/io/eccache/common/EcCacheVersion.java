package io.eccache.common;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version of eccache on the classpath, as {@code eccache --version} and the servers' logs say
 * it. It comes from a resource Maven fills at build time rather than from the jar's manifest:
 * {@code bin/eccache} runs the modules' {@code target/classes}, which have no manifest.
 */
public final class EcCacheVersion {
  private static final String RESOURCE = "eccache-version.properties";
  private static final String VERSION = load();

  private EcCacheVersion() {}

  /** This build's version, e.g. {@code 0.2.0}; {@code unknown} if the build left it out. */
  public static String current() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = EcCacheVersion.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "").trim();
        if (!v.isEmpty() && !v.startsWith("${")) {
          return v;
        }
      }
    } catch (IOException e) {
      // fall through to the manifest: a version is a label, never a reason to fail
    }
    String fromManifest = EcCacheVersion.class.getPackage().getImplementationVersion();
    return fromManifest == null ? "unknown" : fromManifest;
  }
}
