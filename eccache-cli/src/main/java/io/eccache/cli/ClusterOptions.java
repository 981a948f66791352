package io.eccache.cli;

import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.conf.Source;
import io.eccache.client.EcCacheClient;
import io.eccache.common.EcCacheKeys;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Option;

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

  /**
   * A copy of Alluxio's global configuration with this command's overrides applied (a copy, so one
   * command's overrides never leak into another's in the same JVM).
   */
  public AlluxioConfiguration configuration() throws IOException {
    InstancedConfiguration result = Configuration.copyGlobal();
    // The eccache keys must be registered before property files naming them are parsed.
    EcCacheKeys.registerAll();
    if (conf != null) {
      Properties file = new Properties();
      try (Reader in = Files.newBufferedReader(conf, StandardCharsets.UTF_8)) {
        file.load(in);
      } catch (IOException e) {
        throw new IOException("cannot read --conf " + conf + ": " + e.getMessage(), e);
      }
      result.merge(file, Source.siteProperty(conf.toString()));
    }
    if (!properties.isEmpty()) {
      result.merge(properties, Source.RUNTIME);
    }
    if (master != null) {
      int colon = master.lastIndexOf(':');
      String host = colon < 0 ? master : master.substring(0, colon);
      if (host.isEmpty()) {
        throw new IllegalArgumentException("--master needs a host name, e.g. --master "
            + "alluxio-master:19998");
      }
      result.set(PropertyKey.MASTER_HOSTNAME, host, Source.RUNTIME);
      if (colon >= 0) {
        try {
          result.set(PropertyKey.MASTER_RPC_PORT,
              Integer.parseInt(master.substring(colon + 1)), Source.RUNTIME);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("--master " + master + ": the port is not a number");
        }
      }
    }
    return result;
  }

  /** A client of the configured cluster; the caller closes it. */
  public EcCacheClient connect() throws IOException {
    return EcCacheClient.create(configuration());
  }

  /** Where the master is, for messages. */
  static String masterOf(AlluxioConfiguration conf) {
    return conf.getString(PropertyKey.MASTER_HOSTNAME) + ":"
        + conf.getInt(PropertyKey.MASTER_RPC_PORT);
  }
}
