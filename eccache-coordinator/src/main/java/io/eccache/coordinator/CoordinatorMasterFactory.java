package io.eccache.coordinator;

import alluxio.conf.Configuration;
import alluxio.master.CoreMasterContext;
import alluxio.master.MasterFactory;
import alluxio.master.MasterRegistry;
import alluxio.master.block.BlockMaster;
import alluxio.master.file.FileSystemMaster;
import alluxio.master.meta.MetaMaster;
import io.eccache.common.EcCacheKeys;
import io.eccache.common.MasterKeys;

/**
 * Found by Alluxio's own {@code ServiceUtils.getMasterServiceLoader()} through
 * {@code META-INF/services/alluxio.master.MasterFactory} when the eccache coordinator jar is on an
 * unmodified master's classpath ({@code ALLUXIO_CLASSPATH}).
 */
public final class CoordinatorMasterFactory implements MasterFactory<CoreMasterContext> {
  /** For ServiceLoader; registers eccache's keys, which Alluxio read before the plugin loaded. */
  public CoordinatorMasterFactory() {
    EcCacheKeys.registerAll();
  }

  @Override
  public boolean isEnabled() {
    return Configuration.getBoolean(MasterKeys.COORDINATOR_ENABLED);
  }

  @Override
  public String getName() {
    return CoordinatorMaster.NAME;
  }

  @Override
  public CoordinatorMaster create(MasterRegistry registry, CoreMasterContext context) {
    // Factories run in parallel: wait for the masters we use. MetaMaster first, so that its
    // listeners are registered before ours (BlockMaster's listener lists are not thread-safe).
    registry.get(MetaMaster.class);
    BlockMaster blockMaster = registry.get(BlockMaster.class);
    FileSystemMaster fileSystemMaster = registry.get(FileSystemMaster.class);
    CoordinatorMaster master = new CoordinatorMaster(context, blockMaster, fileSystemMaster);
    registry.add(CoordinatorMaster.class, master);
    return master;
  }
}
