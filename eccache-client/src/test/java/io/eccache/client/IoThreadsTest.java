package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import io.eccache.common.ClientKeys;
import io.eccache.common.EcCacheKeys;
import org.junit.jupiter.api.Test;

/** alluxio.user.eccache.io.threads: a client without split threads is refused before it opens. */
class IoThreadsTest {
  @Test
  void noThreadsIsRefusedNamingTheKey() {
    EcCacheKeys.registerAll();
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(ClientKeys.IO_THREADS, 0);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> EcCacheClient.create(conf));
    assertTrue(e.getMessage().contains("alluxio.user.eccache.io.threads"), e.getMessage());
  }
}
