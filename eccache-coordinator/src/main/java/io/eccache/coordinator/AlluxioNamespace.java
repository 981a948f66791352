package io.eccache.coordinator;

import static io.eccache.coordinator.MasterCalls.asMaster;

import alluxio.AlluxioURI;
import alluxio.conf.Configuration;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.CreateDirectoryPOptions;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.DeletePOptions;
import alluxio.grpc.ExistsPOptions;
import alluxio.grpc.FileSystemMasterCommonPOptions;
import alluxio.grpc.FreePOptions;
import alluxio.grpc.GetStatusPOptions;
import alluxio.grpc.ListStatusPOptions;
import alluxio.grpc.LoadMetadataPType;
import alluxio.grpc.RenamePOptions;
import alluxio.grpc.SetAttributePOptions;
import alluxio.grpc.WritePType;
import alluxio.master.block.BlockMaster;
import alluxio.master.file.DefaultFileSystemMaster;
import alluxio.master.file.FileSystemMaster;
import alluxio.master.file.contexts.CreateDirectoryContext;
import alluxio.master.file.contexts.CreateFileContext;
import alluxio.master.file.contexts.DeleteContext;
import alluxio.master.file.contexts.ExistsContext;
import alluxio.master.file.contexts.FreeContext;
import alluxio.master.file.contexts.GetStatusContext;
import alluxio.master.file.contexts.ListStatusContext;
import alluxio.master.file.contexts.RenameContext;
import alluxio.master.file.contexts.SetAttributeContext;
import alluxio.master.file.meta.MountTable;
import alluxio.proto.journal.File.XAttrUpdateStrategy;
import alluxio.resource.CloseableResource;
import alluxio.security.authorization.Mode;
import alluxio.security.user.ServerUserState;
import alluxio.underfs.UnderFileSystem;
import alluxio.util.SecurityUtils;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerInfo;
import com.google.protobuf.ByteString;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.WorkersPort;
import java.io.IOException;
import java.util.List;

/**
 * {@link NamespacePort} over Alluxio's FileSystemMaster and {@link WorkersPort} over its
 * BlockMaster: every call as the master's own user (Alluxio's superuser), as Alluxio's REST
 * handlers do, so eccache's directories belong to eccache, not to whichever client wrote first.
 */
final class AlluxioNamespace implements NamespacePort, WorkersPort {
  private final FileSystemMaster fs;
  private final BlockMaster blockMaster;
  /** Alluxio's mount table, to ask the under store directly; null on another master class. */
  private final MountTable mounts;

  AlluxioNamespace(FileSystemMaster fs, BlockMaster blockMaster) {
    this.fs = fs;
    this.blockMaster = blockMaster;
    this.mounts = fs instanceof DefaultFileSystemMaster
        ? ((DefaultFileSystemMaster) fs).getMountTable() : null;
  }

  @Override
  public boolean exists(String path) throws IOException, AlluxioException {
    // Unlike a status call, Alluxio's exists does not hand a missing path to its absent-path
    // cache, which would ask S3 for it (a HEAD and a listing) on a thread of its own.
    return asMaster(() -> fs.exists(new AlluxioURI(path), ExistsContext.mergeFrom(
        ExistsPOptions.newBuilder().setLoadMetadataType(LoadMetadataPType.NEVER)
            .setCommonOptions(NO_SYNC))));
  }

  @Override
  public FileInfo status(String path, Load load) throws IOException, AlluxioException {
    GetStatusPOptions.Builder options = GetStatusPOptions.newBuilder()
        .setLoadMetadataType(loadType(load));
    if (load == Load.NEVER) {
      options.setCommonOptions(NO_SYNC);
    }
    return asMaster(() -> fs.getFileInfo(new AlluxioURI(path),
        GetStatusContext.mergeFrom(options)));
  }

  @Override
  public List<FileInfo> list(String dir, Load load) throws IOException, AlluxioException {
    ListStatusPOptions.Builder options = ListStatusPOptions.newBuilder()
        .setLoadMetadataType(loadType(load));
    if (load == Load.NEVER) {
      options.setCommonOptions(NO_SYNC);
    }
    return asMaster(() -> fs.listStatus(new AlluxioURI(dir), ListStatusContext.mergeFrom(options)));
  }

  @Override
  public void putXattr(String path, String name, byte[] value)
      throws IOException, AlluxioException {
    setAttribute(path, SetAttributePOptions.newBuilder()
        .putXattr(name, ByteString.copyFrom(value))
        .setXattrUpdateStrategy(XAttrUpdateStrategy.UNION_REPLACE));
  }

  @Override
  public void removeXattr(String path, String name) throws IOException, AlluxioException {
    setAttribute(path, SetAttributePOptions.newBuilder().putXattr(name, ByteString.EMPTY)
        .setXattrUpdateStrategy(XAttrUpdateStrategy.DELETE_KEYS));
  }

  @Override
  public void createDirectory(String path, NewDirectory options)
      throws IOException, AlluxioException {
    CreateDirectoryPOptions.Builder proto = CreateDirectoryPOptions.newBuilder()
        .setRecursive(options.recursive).setAllowExists(options.allowExists)
        .setWriteType(options.throughToUnderStore ? WritePType.CACHE_THROUGH
            : WritePType.MUST_CACHE);
    if (options.mode >= 0) {
      proto.setMode(new Mode(options.mode).toProto());
    }
    asMaster(() -> {
      CreateDirectoryContext context = CreateDirectoryContext.mergeFrom(proto);
      if (options.owner != null) {
        context.setOwner(options.owner).setGroup(options.group);
      }
      return fs.createDirectory(new AlluxioURI(path), context);
    });
  }

  @Override
  public FileInfo createFile(String path, NewFile options) throws IOException, AlluxioException {
    return asMaster(() -> {
      CreateFileContext context = CreateFileContext.mergeFrom(CreateFilePOptions.newBuilder()
          .setWriteType(WritePType.MUST_CACHE).setReplicationMax(1).setRecursive(true)
          .setMode(new Mode(options.mode).toProto()).setBlockSizeBytes(options.blockSizeBytes)
          .setOverwrite(options.replaces));
      if (options.owner != null) {
        context.setOwner(options.owner).setGroup(options.group);
      }
      return fs.createFile(new AlluxioURI(path), context);
    });
  }

  @Override
  public void setMode(String path, short mode, String owner) throws IOException, AlluxioException {
    SetAttributePOptions.Builder options = SetAttributePOptions.newBuilder()
        .setMode(new Mode(mode).toProto());
    if (owner != null) {
      options.setOwner(owner);
    }
    setAttribute(path, options);
  }

  @Override
  public void rename(String from, String to) throws IOException, AlluxioException {
    asMaster(() -> {
      fs.rename(new AlluxioURI(from), new AlluxioURI(to),
          RenameContext.mergeFrom(RenamePOptions.newBuilder()));
      return null;
    });
  }

  @Override
  public void delete(String path, Removal how) throws IOException, AlluxioException {
    DeletePOptions.Builder options;
    switch (how) {
      case ALLUXIO_ONLY:
        options = DeletePOptions.newBuilder().setRecursive(true).setAlluxioOnly(true);
        break;
      case ALLUXIO_ONLY_IF_EMPTY:
        options = DeletePOptions.newBuilder().setRecursive(false).setAlluxioOnly(true);
        break;
      case EVERYWHERE:
        options = DeletePOptions.newBuilder().setRecursive(false).setAlluxioOnly(false)
            .setUnchecked(true);
        break;
      default:
        throw new AssertionError(how);
    }
    asMaster(() -> {
      fs.delete(new AlluxioURI(path), DeleteContext.mergeFrom(options));
      return null;
    });
  }

  @Override
  public void free(String path) throws IOException, AlluxioException {
    asMaster(() -> {
      fs.free(new AlluxioURI(path), FreeContext.mergeFrom(FreePOptions.newBuilder()));
      return null;
    });
  }

  @Override
  public boolean isFileAnywhere(String path) throws IOException, AlluxioException {
    if (exists(path)) {
      try {
        return !status(path).isFolder();
      } catch (alluxio.exception.FileDoesNotExistException removedSince) {
        return false;
      }
    }
    if (mounts == null) {
      try {
        return !status(path, Load.ONCE).isFolder();
      } catch (alluxio.exception.FileDoesNotExistException e) {
        return false;
      }
    }
    MountTable.Resolution resolution = mounts.resolve(new AlluxioURI(path));
    try (CloseableResource<UnderFileSystem> ufs = resolution.acquireUfsResource()) {
      return ufs.get().isFile(resolution.getUri().toString());
    }
  }

  @Override
  public String masterUser() {
    try {
      return SecurityUtils.isSecurityEnabled(Configuration.global())
          ? ServerUserState.global().getUser().getName() : null;
    } catch (IOException e) {
      throw new IllegalStateException("the master has no user of its own", e);
    }
  }

  @Override
  public List<WorkerInfo> live() throws UnavailableException {
    return blockMaster.getWorkerInfoList();
  }

  @Override
  public int liveCount() {
    return blockMaster.getWorkerCount();
  }

  @Override
  public int lostCount() {
    return blockMaster.getLostWorkerCount();
  }

  private void setAttribute(String path, SetAttributePOptions.Builder options)
      throws IOException, AlluxioException {
    asMaster(() -> {
      fs.setAttribute(new AlluxioURI(path), SetAttributeContext.mergeFrom(options));
      return null;
    });
  }

  private static LoadMetadataPType loadType(Load load) {
    switch (load) {
      case NEVER:
        return LoadMetadataPType.NEVER;
      case ONCE:
        return LoadMetadataPType.ONCE;
      case ALWAYS:
        return LoadMetadataPType.ALWAYS;
      default:
        throw new AssertionError(load);
    }
  }

  /** eccache's own directories live only in Alluxio: never sync them with the under store. */
  private static final FileSystemMasterCommonPOptions NO_SYNC =
      FileSystemMasterCommonPOptions.newBuilder().setSyncIntervalMs(-1).build();
}
