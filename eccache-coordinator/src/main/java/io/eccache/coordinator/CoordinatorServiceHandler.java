package io.eccache.coordinator;

import alluxio.RpcUtils;
import alluxio.exception.AccessControlException;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.PermissionDeniedException;
import io.eccache.common.ObjectKeys;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.ApplyChangeResponse;
import io.eccache.common.proto.PlanRequest;
import io.eccache.common.proto.AbortUpdateRequest;
import io.eccache.common.proto.AbortUpdateResponse;
import io.eccache.common.proto.CommitUpdateRequest;
import io.eccache.common.proto.CommitUpdateResponse;
import io.eccache.common.proto.PlanResponse;
import io.eccache.common.proto.RegisterLogNodeRequest;
import io.eccache.common.proto.RegisterLogNodeResponse;
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
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC face of {@link CoordinatorMaster}. Every request's caller is captured first, on the
 * RPC's own thread (Alluxio's authenticated user), handed to the master, which decides as that
 * caller before anything runs as the master, and named in Alluxio's audit log. Alluxio's
 * {@code RpcUtils.call} maps its status-typed exceptions (NotFound, PermissionDenied,
 * InvalidArgument, ...) to gRPC statuses in one place.
 */
final class CoordinatorServiceHandler extends CoordinatorServiceGrpc.CoordinatorServiceImplBase {
  private static final Logger LOG = LoggerFactory.getLogger(CoordinatorServiceHandler.class);

  private final CoordinatorMaster master;

  CoordinatorServiceHandler(CoordinatorMaster master) {
    this.master = master;
  }

  /** One request, as its caller. */
  private interface CallerCall<T> {
    T call(Caller caller) throws AlluxioException, IOException;
  }

  /**
   * Runs {@code call} as the RPC's caller and writes its audit line: {@code command} on
   * {@code key}'s governing path (or {@code path} when there is no key).
   */
  private <T> RpcUtils.RpcCallableThrowsIOException<T> audited(String command, String key,
      String path, CallerCall<T> call) {
    return () -> {
      Caller caller = Caller.current();
      AuditLog audit = master.auditLog();
      if (!audit.enabled()) {
        return call.call(caller);
      }
      String src = path;
      if (key != null) {
        try {
          src = master.access().governingPath(ObjectKeys.check(key));
        } catch (InvalidArgumentException bad) {
          src = key;
        }
      }
      try (AuditLog.Entry entry = audit.entry(caller, command, src)) {
        try {
          T result = call.call(caller);
          entry.setSucceeded(true);
          return result;
        } catch (PermissionDeniedException | AccessControlException e) {
          entry.setAllowed(false);
          throw e;
        }
      }
    };
  }

  @Override
  public void allocate(AllocateRequest request, StreamObserver<AllocateResponse> out) {
    RpcUtils.call(LOG, audited("eccache.put", request.getKey(), null,
        caller -> master.allocate(caller, request)), "Allocate", "request=%s", out, request);
  }

  @Override
  public void commit(CommitRequest request, StreamObserver<CommitResponse> out) {
    RpcUtils.call(LOG, audited("eccache.commit", request.getKey(), null, caller -> {
      master.commit(caller, request);
      return CommitResponse.getDefaultInstance();
    }), "Commit", "key=%s", out, request.getKey());
  }

  @Override
  public void placeSplit(io.eccache.common.proto.PlaceSplitRequest request,
      StreamObserver<io.eccache.common.proto.PlaceSplitResponse> out) {
    RpcUtils.call(LOG, audited("eccache.placeSplit", request.getKey(), null,
        caller -> master.placeSplit(caller, request)), "PlaceSplit", "key=%s", out,
        request.getKey());
  }

  @Override
  public void markPersisted(MarkPersistedRequest request,
      StreamObserver<MarkPersistedResponse> out) {
    RpcUtils.call(LOG, audited("eccache.markPersisted", request.getKey(), null,
        caller -> MarkPersistedResponse.newBuilder().setMarked(
            master.markPersisted(caller, request.getKey(), request.getWriteId())).build()),
        "MarkPersisted", "key=%s", out, request.getKey());
  }

  @Override
  public void reportReads(io.eccache.common.proto.ReportReadsRequest request,
      StreamObserver<io.eccache.common.proto.ReportReadsResponse> out) {
    RpcUtils.call(LOG, audited("eccache.reportReads", null, null, caller -> {
      master.reportReads(caller, request.getReadsMap());
      return io.eccache.common.proto.ReportReadsResponse.getDefaultInstance();
    }), "ReportReads", "keys=%s", out, request.getReadsCount());
  }

  @Override
  public void lookup(LookupRequest request, StreamObserver<LookupResponse> out) {
    // An unknown key is an answer, not a failure worth a WARN line.
    RpcUtils.call(LOG, audited(request.getStatOnly() ? "eccache.stat" : "eccache.get",
        request.getKey(), null,
        caller -> master.lookup(caller, request.getKey(), request.getStatOnly())), "Lookup",
        true, "key=%s", out, request.getKey());
  }

  @Override
  public void delete(DeleteRequest request, StreamObserver<DeleteResponse> out) {
    RpcUtils.call(LOG, audited(request.getCacheOnly() ? "eccache.evict" : "eccache.delete",
        request.getKey(), null, caller -> DeleteResponse.newBuilder()
            .setExisted(master.delete(caller, request.getKey(), request.getCacheOnly()))
            .build()), "Delete", "key=%s", out, request.getKey());
  }

  @Override
  public void list(ListRequest request, StreamObserver<ListResponse> out) {
    RpcUtils.call(LOG, audited("eccache.list", null, request.getPrefix(),
        caller -> master.list(caller, request.getPrefix())), "List", "prefix=%s", out,
        request.getPrefix());
  }

  @Override
  public void plan(PlanRequest request, StreamObserver<PlanResponse> out) {
    RpcUtils.call(LOG, audited("eccache.plan", null, null,
        caller -> master.plan(caller, request.getMaxTasks())), "Plan", "max=%s", out,
        request.getMaxTasks());
  }

  @Override
  public void applyChange(ApplyChangeRequest request, StreamObserver<ApplyChangeResponse> out) {
    RpcUtils.call(LOG, audited("eccache.applyChange", null, null,
        caller -> master.applyChange(caller, request)), "ApplyChange", "lease=%s", out,
        request.getLease());
  }

  @Override
  public void stats(StatsRequest request, StreamObserver<StatsResponse> out) {
    RpcUtils.call(LOG, audited("eccache.stats", null, null, master::stats), "Stats", "", out);
  }

  @Override
  public void registerLogNode(RegisterLogNodeRequest request,
      StreamObserver<RegisterLogNodeResponse> out) {
    RpcUtils.call(LOG, audited("eccache.registerLogNode", null, null,
        caller -> master.registerLogNode(caller, request)), "RegisterLogNode", "worker=%s", out,
        request.getWorker().getHost());
  }

  @Override
  public void commitUpdate(CommitUpdateRequest request,
      StreamObserver<CommitUpdateResponse> out) {
    RpcUtils.call(LOG, audited("eccache.update", request.getKey(), null,
        caller -> master.commitUpdate(caller, request)), "CommitUpdate", "key=%s", out,
        request.getKey());
  }

  @Override
  public void updateOutcome(io.eccache.common.proto.UpdateOutcomeRequest request,
      StreamObserver<io.eccache.common.proto.UpdateOutcomeResponse> out) {
    RpcUtils.call(LOG, audited("eccache.updateOutcome", null, null,
        caller -> master.updateOutcome(caller, request)), "UpdateOutcome", "stripe=%s", out,
        request.getStripe());
  }

  @Override
  public void abortUpdate(AbortUpdateRequest request, StreamObserver<AbortUpdateResponse> out) {
    RpcUtils.call(LOG, audited("eccache.abortUpdate", request.getKey(), null, caller -> {
      master.abortUpdate(caller, request);
      return AbortUpdateResponse.getDefaultInstance();
    }), "AbortUpdate", "key=%s", out, request.getKey());
  }
}
