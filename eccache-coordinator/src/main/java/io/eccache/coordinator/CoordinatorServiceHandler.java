package io.eccache.coordinator;

import alluxio.RpcUtils;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.ApplyChangeResponse;
import io.eccache.common.proto.PlanRequest;
import io.eccache.common.proto.PlanResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.CommitResponse;
import io.eccache.common.proto.CoordinatorServiceGrpc;
import io.eccache.common.proto.DeleteRequest;
import io.eccache.common.proto.DeleteResponse;
import io.eccache.common.proto.ListRequest;
import io.eccache.common.proto.ListResponse;
import io.eccache.common.proto.LookupRequest;
import io.eccache.common.proto.MarkPersistedRequest;
import io.eccache.common.proto.MarkPersistedResponse;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.StatsRequest;
import io.eccache.common.proto.StatsResponse;
import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC face of {@link CoordinatorMaster}. Alluxio's {@code RpcUtils.call} maps its status-typed
 * exceptions (NotFound, FailedPrecondition, InvalidArgument, ...) to gRPC statuses in one place.
 */
final class CoordinatorServiceHandler extends CoordinatorServiceGrpc.CoordinatorServiceImplBase {
  private static final Logger LOG = LoggerFactory.getLogger(CoordinatorServiceHandler.class);

  private final CoordinatorMaster master;

  CoordinatorServiceHandler(CoordinatorMaster master) {
    this.master = master;
  }

  @Override
  public void allocate(AllocateRequest request, StreamObserver<AllocateResponse> out) {
    RpcUtils.call(LOG, () -> master.allocate(request), "Allocate", "request=%s", out, request);
  }

  @Override
  public void commit(CommitRequest request, StreamObserver<CommitResponse> out) {
    RpcUtils.call(LOG, () -> {
      master.commit(request);
      return CommitResponse.getDefaultInstance();
    }, "Commit", "key=%s", out, request.getKey());
  }

  @Override
  public void placeSplit(io.eccache.common.proto.PlaceSplitRequest request,
      StreamObserver<io.eccache.common.proto.PlaceSplitResponse> out) {
    RpcUtils.call(LOG, () -> master.placeSplit(request), "PlaceSplit", "key=%s", out,
        request.getKey());
  }

  @Override
  public void markPersisted(MarkPersistedRequest request,
      StreamObserver<MarkPersistedResponse> out) {
    RpcUtils.call(LOG, () -> MarkPersistedResponse.newBuilder()
        .setMarked(master.markPersisted(request.getKey(), request.getWriteId())).build(),
        "MarkPersisted", "key=%s", out, request.getKey());
  }

  @Override
  public void reportReads(io.eccache.common.proto.ReportReadsRequest request,
      StreamObserver<io.eccache.common.proto.ReportReadsResponse> out) {
    RpcUtils.call(LOG, () -> {
      master.reportReads(request.getReadsMap());
      return io.eccache.common.proto.ReportReadsResponse.getDefaultInstance();
    }, "ReportReads", "keys=%s", out, request.getReadsCount());
  }

  @Override
  public void lookup(LookupRequest request, StreamObserver<LookupResponse> out) {
    // An unknown key is an answer, not a failure worth a WARN line.
    RpcUtils.call(LOG, () -> master.lookup(request.getKey(), request.getStatOnly()), "Lookup", true,
        "key=%s", out, request.getKey());
  }

  @Override
  public void delete(DeleteRequest request, StreamObserver<DeleteResponse> out) {
    RpcUtils.call(LOG, () -> DeleteResponse.newBuilder().setExisted(master.delete(request.getKey(),
        request.getCacheOnly()))
        .build(), "Delete", "key=%s", out, request.getKey());
  }

  @Override
  public void list(ListRequest request, StreamObserver<ListResponse> out) {
    RpcUtils.call(LOG, () -> master.list(request.getPrefix()), "List", "prefix=%s", out,
        request.getPrefix());
  }

  @Override
  public void plan(PlanRequest request, StreamObserver<PlanResponse> out) {
    RpcUtils.call(LOG, () -> master.plan(request.getMaxTasks()), "Plan", "max=%s", out,
        request.getMaxTasks());
  }

  @Override
  public void applyChange(ApplyChangeRequest request, StreamObserver<ApplyChangeResponse> out) {
    RpcUtils.call(LOG, () -> master.applyChange(request), "ApplyChange", "lease=%s", out,
        request.getLease());
  }

  @Override
  public void stats(StatsRequest request, StreamObserver<StatsResponse> out) {
    RpcUtils.call(LOG, master::stats, "Stats", "", out);
  }
}
