package io.eccache.common;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where eccache keeps a user's own files (the local cluster's directory, the CLI's logs):
 * {@code $ECCACHE_HOME} when set, else {@code .eccache} under {@code $HOME}, as the shell's
 * {@code ~} is, else under the JVM's {@code user.home} (which Java takes from the password
 * database and which ignores {@code $HOME}).
 */
public final class EcCacheHome {
  /** The variable that names eccache's home directory outright. */
  public static final String VARIABLE = "ECCACHE_HOME";

  private EcCacheHome() {}

  /** This process's: from its environment and {@code user.home}. */
  public static Path current() {
    return of(System.getenv(), System.getProperty("user.home"));
  }

  /**
   * From {@code env} and {@code userHome}; empty variables count as unset.
   *
   * @param env the environment ({@code ECCACHE_HOME}, {@code HOME})
   * @param userHome the JVM's {@code user.home}, the last resort
   */
  public static Path of(Map<String, String> env, String userHome) {
    String home = env.get(VARIABLE);
    if (home != null && !home.isEmpty()) {
      return Path.of(home);
    }
    String shellHome = env.get("HOME");
    return Path.of(shellHome != null && !shellHome.isEmpty() ? shellHome : userHome, ".eccache");
  }
}
