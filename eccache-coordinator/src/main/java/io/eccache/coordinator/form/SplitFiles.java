package io.eccache.coordinator.form;

import alluxio.grpc.GrpcUtils;
import alluxio.wire.BlockLocation;
import alluxio.wire.FileBlockInfo;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerNetAddress;
import io.eccache.common.proto.Split;
import java.util.List;
import java.util.Set;

/** What a lookup says of one split file, for every form. */
public final class SplitFiles {
  private SplitFiles() {}

  /** The worker caching a split file's (single) block, or null when none does. */
  public static WorkerNetAddress location(FileInfo info) {
    List<FileBlockInfo> blocks = info.getFileBlockInfos();
    if (blocks.isEmpty()) {
      return null;
    }
    List<BlockLocation> locations = blocks.get(0).getBlockInfo().getLocations();
    return locations.isEmpty() ? null : locations.get(0).getWorkerAddress();
  }

  /** Sets {@code split}'s file status, and the worker caching it and whether that one is live. */
  public static Split.Builder describe(Split.Builder split, FileInfo info, Set<HostPort> live) {
    split.setPath(info.getPath()).setStatus(GrpcUtils.toProto(info));
    WorkerNetAddress where = location(info);
    if (where != null) {
      split.setWorker(GrpcUtils.toProto(where)).setLive(live.contains(HostPort.of(where)));
    }
    return split;
  }
}
