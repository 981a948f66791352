package io.eccache.cli;

import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.conf.Source;
import io.eccache.client.EcCacheClient;
import io.eccache.client.LocalOutput;
import io.eccache.client.LocalOutput.LocalFileException;
import alluxio.util.FormatUtils;
import alluxio.util.network.NetworkAddressUtils;
import io.eccache.common.ClientKeys;
import io.eccache.common.EcCacheKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Which cluster a command talks to. By default it is the one Alluxio's own client finds: the
 * {@code alluxio-site.properties} in {@code alluxio.conf.dir} ({@code $ALLUXIO_CONF_DIR} through
 * {@code bin/eccache}), {@code ~/.alluxio/} or {@code /etc/alluxio/}, so an Alluxio user needs no new
 * configuration. These options override it for one command.
 */
public final class ClusterOptions {
  @Option(names = "--master", paramLabel = "HOST[:PORT]",
      description = "Alluxio master to use (default: alluxio.master.hostname and "
          + "alluxio.master.rpc.port from alluxio-site.properties).")
  public String master;

  @Option(names = "--conf", paramLabel = "FILE",
      description = "Read Alluxio and eccache properties from this file too; its values win.")
  Path conf;

  @Option(names = "-D", paramLabel = "KEY=VALUE", mapFallbackValue = "",
      description = "Set one Alluxio or eccache property (repeatable); wins over files.")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(names = "--timeout", paramLabel = "DURATION",
      description = "Give up reaching the cluster after this long, e.g. 10s, 1min, 500ms "
          + "(default: alluxio.user.eccache.cli.timeout, 5s).")
  String timeout;

  @Option(names = {"-v", "--verbose"},
      description = "Say on stderr which master is used and where that came from.")
  boolean verbose;

  @Spec(Spec.Target.MIXEE) CommandSpec mixee;

  /** The master address and where it came from, once {@link #configuration()} ran. */
  private String masterDescription = "the Alluxio master";
  private long timeoutMs;

  /**
   * A copy of Alluxio's global configuration with this command's overrides applied (a copy, so one
   * command's overrides never leak into another's in the same JVM).
   */
  public AlluxioConfiguration configuration() throws IOException {
    InstancedConfiguration result = Configuration.copyGlobal();
    // The eccache keys must be registered before property files naming them are parsed.
    EcCacheKeys.registerAll();
    if (conf != null) {
      result.merge(confFile(), Source.siteProperty(conf.toString()));
    }
    if (!properties.isEmpty()) {
      result.merge(properties, Source.RUNTIME);
    }
    if (master != null) {
      int colon = master.lastIndexOf(':');
      String host = colon < 0 ? master : master.substring(0, colon);
      if (host.isEmpty()) {
        throw new UsageException("--master needs a host name, e.g. --master "
            + "alluxio-master:19998");
      }
      result.set(PropertyKey.MASTER_HOSTNAME, host, Source.RUNTIME);
      if (colon >= 0) {
        try {
          result.set(PropertyKey.MASTER_RPC_PORT,
              Integer.parseInt(master.substring(colon + 1)), Source.RUNTIME);
        } catch (NumberFormatException e) {
          throw new UsageException("--master " + master + ": the port is not a number");
        }
      }
    }
    applyTimeout(result);
    masterDescription = describeMaster(result);
    if (verbose) {
      // The command's stderr (a mixin's own spec has no command line of its own).
      PrintWriter err = mixee != null && mixee.commandLine() != null
          ? mixee.commandLine().getErr() : new PrintWriter(System.err, true);
      err.println("eccache: using " + masterDescription);
      err.flush();
    }
    return result;
  }

  /**
   * The properties the --conf file and the -D options set, by name, -D's after the file's (so
   * they win): what a command that starts a cluster of its own applies to it.
   */
  public Map<String, String> overrides() throws IOException {
    Map<String, String> all = new LinkedHashMap<>();
    if (conf != null) {
      confFile().forEach((key, value) -> all.put((String) key, (String) value));
    }
    all.putAll(properties);
    return all;
  }

  private Properties confFile() throws IOException {
    Properties file = new Properties();
    try (Reader in = Files.newBufferedReader(conf, StandardCharsets.UTF_8)) {
      file.load(in);
    } catch (IOException e) {
      throw new LocalFileException("--conf: " + LocalOutput.describe(e, conf).getMessage(), e);
    }
    return file;
  }

  /**
   * Bounds every wait for the master by the command's deadline: Alluxio's own defaults retry a dead
   * or wrong master for two minutes. Keys the user set with -D are left as given.
   */
  private void applyTimeout(InstancedConfiguration conf) {
    long ms;
    try {
      ms = timeout != null ? FormatUtils.parseTimeSize(timeout) : conf.getMs(ClientKeys.CLI_TIMEOUT);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--timeout " + timeout + ": not a duration; give e.g. 10s,"
          + " 1min or 500ms");
    }
    if (ms <= 0) {
      throw new UsageException("--timeout must be positive, e.g. 10s");
    }
    timeoutMs = ms;
    setUnlessGiven(conf, PropertyKey.USER_RPC_RETRY_MAX_DURATION, ms + "ms");
    setUnlessGiven(conf, PropertyKey.USER_RPC_RETRY_MAX_SLEEP_MS,
        Math.min(conf.getMs(PropertyKey.USER_RPC_RETRY_MAX_SLEEP_MS), Math.max(50, ms / 4)) + "ms");
    setUnlessGiven(conf, PropertyKey.USER_MASTER_POLLING_TIMEOUT, ms + "ms");
    setUnlessGiven(conf, PropertyKey.NETWORK_CONNECTION_AUTH_TIMEOUT, ms + "ms");
    setUnlessGiven(conf, PropertyKey.NETWORK_CONNECTION_HEALTH_CHECK_TIMEOUT,
        Math.min(conf.getMs(PropertyKey.NETWORK_CONNECTION_HEALTH_CHECK_TIMEOUT), ms) + "ms");
  }

  private void setUnlessGiven(InstancedConfiguration conf, PropertyKey key, String value) {
    if (!properties.containsKey(key.getName())) {
      conf.set(key, value, Source.RUNTIME);
    }
  }

  /** "the master at HOST:PORT (from WHERE)", for messages. */
  private String describeMaster(AlluxioConfiguration conf) {
    if (conf.isSet(PropertyKey.MASTER_RPC_ADDRESSES)) {
      return "the masters at " + conf.getString(PropertyKey.MASTER_RPC_ADDRESSES) + " (from "
          + origin(conf, PropertyKey.MASTER_RPC_ADDRESSES) + ")";
    }
    return "the master at " + masterOf(conf) + " (from "
        + origin(conf, PropertyKey.MASTER_HOSTNAME) + ")";
  }

  private String origin(AlluxioConfiguration conf, PropertyKey key) {
    if (master != null && key == PropertyKey.MASTER_HOSTNAME) {
      return "--master";
    }
    if (properties.containsKey(key.getName())) {
      return "-D " + key.getName();
    }
    Source source = conf.getSource(key);
    switch (source.getType()) {
      case SITE_PROPERTY: {
        // Alluxio names it "SITE_PROPERTY (PATH)".
        String text = source.toString();
        int open = text.indexOf('(');
        String path = open < 0 ? text : text.substring(open + 1, text.length() - 1);
        return this.conf != null && path.equals(this.conf.toString()) ? "--conf " + path
            : "alluxio-site.properties at " + path;
      }
      case SYSTEM_PROPERTY:
        return "the Java system property " + key.getName();
      case DEFAULT:
      case UNKNOWN:
        return "Alluxio's default, this host: no alluxio-site.properties found sets "
            + key.getName();
      default:
        return source.toString();
    }
  }

  /** The master address used and where it came from, once {@link #configuration()} ran. */
  String masterDescription() {
    return masterDescription;
  }

  /** The command's deadline, for messages. */
  String timeoutDescription() {
    return String.format("%.3g s (%s)", timeoutMs / 1000.0,
        timeout != null ? "--timeout" : "alluxio.user.eccache.cli.timeout");
  }

  /** A client of the configured cluster; the caller closes it. */
  public EcCacheClient connect() throws IOException {
    return EcCacheClient.create(configuration());
  }

  /**
   * Where the master is, as Alluxio's client finds it: alluxio.master.hostname, or this host's name
   * when nothing sets it.
   */
  static String masterOf(AlluxioConfiguration conf) {
    return NetworkAddressUtils.getConnectHost(NetworkAddressUtils.ServiceType.MASTER_RPC, conf)
        + ":" + conf.getInt(PropertyKey.MASTER_RPC_PORT);
  }
}
