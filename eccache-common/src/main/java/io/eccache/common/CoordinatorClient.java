package io.eccache.common;

import alluxio.AbstractMasterClient;
import alluxio.Constants;
import alluxio.conf.PropertyKey;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.grpc.ServiceType;
import alluxio.master.MasterClientContext;
import alluxio.retry.ExponentialTimeBoundedRetry;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.PlanRequest;
import io.eccache.common.proto.PlanResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.CoordinatorServiceGrpc;
import io.eccache.common.proto.DeleteRequest;
import io.eccache.common.proto.ListRequest;
import io.eccache.common.proto.ListResponse;
import io.eccache.common.proto.LookupRequest;
import io.eccache.common.proto.MarkPersistedRequest;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.StatsRequest;
import io.eccache.common.proto.StatsResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the eccache coordinator in the Alluxio master, over Alluxio's own authenticated master
 * channel (found the way every Alluxio client finds the primary master, retried with Alluxio's retry
 * policy). Errors arrive as Alluxio's status-typed exceptions: {@code NotFoundException} for an unknown
 * key, {@code FailedPreconditionException} when there are too few live workers, and so on.
 * Thread-safe: calls are serialized, as in Alluxio's own master clients. Each call's answer is
 * awaited {@link ClientKeys#COORDINATOR_TIMEOUT} at most: Alluxio's retries bound reaching the
 * master, not a master that takes the call and never answers.
 */
public final class CoordinatorClient extends AbstractMasterClient {
  private static final Logger LOG = LoggerFactory.getLogger(CoordinatorClient.class);

  private CoordinatorServiceGrpc.CoordinatorServiceBlockingStub stub;
  private final long callTimeoutMs;

  public CoordinatorClient(MasterClientContext context) {
    // Alluxio's default retry reads the global configuration; this one honours the context's own,
    // so a client made from a per-command configuration gives up when that configuration says.
    super(context, () -> ExponentialTimeBoundedRetry.builder()
        .withMaxDuration(context.getClusterConf().getDuration(
            PropertyKey.USER_RPC_RETRY_MAX_DURATION))
        .withInitialSleep(context.getClusterConf().getDuration(
            PropertyKey.USER_RPC_RETRY_BASE_SLEEP_MS))
        .withMaxSleep(context.getClusterConf().getDuration(
            PropertyKey.USER_RPC_RETRY_MAX_SLEEP_MS))
        .build());
    this.callTimeoutMs = context.getClusterConf().getMs(ClientKeys.COORDINATOR_TIMEOUT);
  }

  @Override
  protected ServiceType getRemoteServiceType() {
    return ServiceType.UNKNOWN_SERVICE;
  }

  @Override
  protected String getServiceName() {
    return "EcCacheCoordinator";
  }

  @Override
  protected long getServiceVersion() {
    return Constants.UNKNOWN_SERVICE_VERSION;
  }

  @Override
  protected void afterConnect() {
    stub = CoordinatorServiceGrpc.newBlockingStub(mChannel);
  }

  /** The stub for one attempt of a call, whose answer is awaited {@link #callTimeoutMs} at most. */
  private CoordinatorServiceGrpc.CoordinatorServiceBlockingStub stub() {
    return stub.withDeadlineAfter(callTimeoutMs, TimeUnit.MILLISECONDS);
  }

  /**
   * Alluxio's retried call; an attempt that met its own deadline fails as a
   * {@link DeadlineExceededException} that says what to do (one the master sent stays as it is).
   */
  private <V> V call(RpcCallable<V> rpc, String name, String description, Object... args)
      throws AlluxioStatusException {
    try {
      return retryRPC(() -> {
        long began = System.nanoTime();
        try {
          return rpc.call();
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED
              && System.nanoTime() - began >= TimeUnit.MILLISECONDS.toNanos(callTimeoutMs)) {
            throw new NoAnswer(e); // not retried: the master has the call
          }
          throw e;
        }
      }, LOG, name, description, args);
    } catch (NoAnswer e) {
      String master = mServerAddress == null ? "the master"
          : "the master at " + mServerAddress.getSocketAddress();
      throw new DeadlineExceededException("the coordinator (in " + master + ") did not answer "
          + name + " (" + String.format(description, args) + ") within " + callTimeoutMs
          + " ms (" + ClientKeys.COORDINATOR_TIMEOUT.getName() + "): the master took the call and"
          + " is stuck or overloaded; check its log and threads (jstack), then try again"
          + ("Commit".equals(name) ? "; the commit may still take effect: stat the key to see"
          + " which version it holds" : ""), e.getCause());
    }
  }

  /** An attempt that met the call's deadline, carried out of Alluxio's retry loop. */
  private static final class NoAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoAnswer(StatusRuntimeException cause) {
      super(cause);
    }
  }

  public AllocateResponse allocate(AllocateRequest request) throws AlluxioStatusException {
    return call(() -> stub().allocate(request), "Allocate", "key=%s", request.getKey());
  }

  public void commit(CommitRequest request) throws AlluxioStatusException {
    call(() -> stub().commit(request), "Commit", "key=%s", request.getKey());
  }

  /** A new worker for a split of pending write {@code writeId}, none of {@code exclude}. */
  public alluxio.grpc.WorkerNetAddress placeSplit(String key, String writeId,
      java.util.List<alluxio.grpc.WorkerNetAddress> exclude) throws AlluxioStatusException {
    return call(() -> stub().placeSplit(io.eccache.common.proto.PlaceSplitRequest.newBuilder()
        .setKey(key).setWriteId(writeId).addAllExclude(exclude).build()), "PlaceSplit",
        "key=%s", key).getWorker();
  }

  /** Marks a committed write as copied to the under store; false if the key holds another write. */
  public boolean markPersisted(String key, String writeId) throws AlluxioStatusException {
    return call(() -> stub().markPersisted(MarkPersistedRequest.newBuilder().setKey(key)
        .setWriteId(writeId).build()), "MarkPersisted", "key=%s", key).getMarked();
  }

  /** The layout and split locations of {@code key}, counted as an access (a read). */
  public LookupResponse lookup(String key) throws AlluxioStatusException {
    return lookup(key, false);
  }

  /** As {@link #lookup(String)}; {@code statOnly}: not counted as an access. */
  public LookupResponse lookup(String key, boolean statOnly) throws AlluxioStatusException {
    return call(() -> stub().lookup(LookupRequest.newBuilder().setKey(key)
        .setStatOnly(statOnly).build()), "Lookup", "key=%s", key);
  }

  /**
   * Reports GETs served from cached layouts, per key (each count > 0): the coordinator counts them
   * as accesses, as it counts a {@link #lookup(String)}.
   */
  public void reportReads(java.util.Map<String, Long> reads) throws AlluxioStatusException {
    call(() -> stub().reportReads(io.eccache.common.proto.ReportReadsRequest.newBuilder()
        .putAllReads(reads).build()), "ReportReads", "keys=%s", reads.size());
  }

  /** Up to {@code maxTasks} maintenance tasks, each leased to this caller. */
  public PlanResponse plan(int maxTasks) throws AlluxioStatusException {
    return call(() -> stub().plan(PlanRequest.newBuilder().setMaxTasks(maxTasks).build()),
        "Plan", "max=%s", maxTasks);
  }

  /** Reports a leased maintenance task done or failed; false if the object changed meanwhile. */
  public boolean applyChange(ApplyChangeRequest request) throws AlluxioStatusException {
    return call(() -> stub().applyChange(request), "ApplyChange", "lease=%s",
        request.getLease()).getApplied();
  }

  /**
   * Deletes {@code key}: from the cache, and unless {@code cacheOnly} from the under store too.
   * Returns whether there was anything to delete.
   */
  public boolean delete(String key, boolean cacheOnly) throws AlluxioStatusException {
    return call(() -> stub().delete(DeleteRequest.newBuilder().setKey(key)
        .setCacheOnly(cacheOnly).build()), "Delete", "key=%s", key).getExisted();
  }

  public ListResponse list(String prefix) throws AlluxioStatusException {
    return call(() -> stub().list(ListRequest.newBuilder().setPrefix(prefix).build()),
        "List", "prefix=%s", prefix);
  }

  public StatsResponse stats() throws AlluxioStatusException {
    return call(() -> stub().stats(StatsRequest.getDefaultInstance()), "Stats", "");
  }

  /**
   * Announces the log node of {@code worker} on {@code port}, started as {@code boot}; returns how
   * soon to announce it again (ms).
   */
  public io.eccache.common.proto.RegisterLogNodeResponse registerLogNode(
      alluxio.grpc.WorkerNetAddress worker, int port, String boot) throws AlluxioStatusException {
    return call(() -> stub().registerLogNode(io.eccache.common.proto.RegisterLogNodeRequest
        .newBuilder().setWorker(worker).setPort(port).setBoot(boot).build()), "RegisterLogNode",
        "worker=%s", worker.getHost());
  }

  /** What became of an update of a packed stripe (log nodes ask; superuser only). */
  public io.eccache.common.proto.UpdateOutcomeResponse.Outcome updateOutcome(long stripe,
      long updateId, long baseVersion) throws AlluxioStatusException {
    return call(() -> stub().updateOutcome(io.eccache.common.proto.UpdateOutcomeRequest
        .newBuilder().setStripe(stripe).setUpdateId(updateId).setBaseVersion(baseVersion)
        .build()), "UpdateOutcome", "stripe=%s", stripe).getOutcome();
  }

  /** Commits an update of a value where it is kept; the stripe version it made. */
  public long commitUpdate(io.eccache.common.proto.CommitUpdateRequest request)
      throws AlluxioStatusException {
    return call(() -> stub().commitUpdate(request), "CommitUpdate", "key=%s",
        request.getKey()).getVersion();
  }

  /** Gives up an update of a value where it is kept. */
  public void abortUpdate(String key, long updateId) throws AlluxioStatusException {
    call(() -> stub().abortUpdate(io.eccache.common.proto.AbortUpdateRequest.newBuilder()
        .setKey(key).setUpdateId(updateId).build()), "AbortUpdate", "key=%s", key);
  }
}
