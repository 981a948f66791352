package io.eccache.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import io.eccache.common.EcCacheKeys;
import io.eccache.common.WorkerKeys;
import io.eccache.common.proto.LogId;
import io.eccache.lognode.LogScheme;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker plugin's settings and its logs, without a worker. */
class LogNodeHostTest {
  private static final LogId KV_ROW_1 = LogId.newBuilder().setNamespace("kv").setDataUnits(4)
      .setParityUnits(3).setRow(1).setUnitSize(256).build();

  @TempDir
  Path dir;

  private InstancedConfiguration conf() {
    EcCacheKeys.registerAll();
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(PropertyKey.WORKER_TIERED_STORE_LEVEL0_DIRS_PATH, dir.resolve("tier0").toString());
    conf.set(WorkerKeys.LOG_NODE_FSYNC, false);
    return conf;
  }

  @Test
  void settingsDefaultToADirectoryBesideTheTierAndRefuseAnUnknownScheme() {
    InstancedConfiguration conf = conf();
    LogNodeSettings settings = LogNodeSettings.from(conf);
    assertEquals(dir.resolve("tier0-lognode"), settings.directory);
    assertEquals(LogScheme.PLM, settings.scheme);
    conf.set(WorkerKeys.LOG_NODE_SCHEME, "plr-m");
    assertEquals(LogScheme.PLR_M, LogNodeSettings.from(conf).scheme);
    conf.set(WorkerKeys.LOG_NODE_SCHEME, "raid");
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> LogNodeSettings.from(conf));
    assertTrue(bad.getMessage().contains(WorkerKeys.LOG_NODE_SCHEME.getName()), bad.getMessage());
  }

  @Test
  void aLogOpensOnceRefusesAnotherCodeAndIsRecoveredAfterAStop() throws Exception {
    LogNodeSettings settings = LogNodeSettings.from(conf());
    LogNodeHost host = new LogNodeHost(settings);
    host.log(KV_ROW_1).putBase(9, 1, 1, ByteBuffer.wrap(new byte[256]));
    assertEquals(host.log(KV_ROW_1), host.log(KV_ROW_1));
    IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
        () -> host.log(KV_ROW_1.toBuilder().setUnitSize(512).build()));
    assertTrue(other.getMessage().contains("code changed"), other.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> host.log(KV_ROW_1.toBuilder().setNamespace("../etc").build()));
    assertEquals(1, host.status().size());
    assertEquals(1, host.status().get(0).getStripes());
    host.close();
    assertThrows(IllegalStateException.class, () -> host.log(KV_ROW_1));
    assertTrue(Files.isDirectory(settings.directory.resolve("kv-row1")));

    LogNodeHost restarted = new LogNodeHost(settings);
    assertEquals(OptionalLong.of(1), restarted.log(KV_ROW_1).version(9));
    restarted.close();
  }
}
