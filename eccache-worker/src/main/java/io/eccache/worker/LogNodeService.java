package io.eccache.worker;

import alluxio.conf.PropertyKey;
import alluxio.security.User;
import alluxio.security.authentication.AuthenticatedClientUser;
import alluxio.security.user.ServerUserState;
import alluxio.util.CommonUtils;
import alluxio.util.SecurityUtils;
import com.google.protobuf.ByteString;
import io.eccache.common.UpdateCapability;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.AppendDeltaResponse;
import io.eccache.common.proto.DecideAllRequest;
import io.eccache.common.proto.DecideAllResponse;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.DecideResponse;
import io.eccache.common.proto.DropStripeRequest;
import io.eccache.common.proto.DropStripeResponse;
import io.eccache.common.proto.LogNodeServiceGrpc;
import io.eccache.common.proto.LogNodeStatusRequest;
import io.eccache.common.proto.LogNodeStatusResponse;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.PutBaseResponse;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import io.eccache.lognode.LogNode;
import io.eccache.lognode.ParityRead;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log node's gRPC face: each call maps onto its log's {@link LogNode} method, and the node's
 * typed refusals onto gRPC statuses a client turns back into Alluxio's typed exceptions (a bad
 * argument: INVALID_ARGUMENT; wrong for the stripe's state or a full buffer: FAILED_PRECONDITION; a
 * disk failure: UNAVAILABLE). Setting or dropping a stripe's base is the maintainers' (Alluxio's
 * superuser and supergroup), as the coordinator's maintenance is.
 */
final class LogNodeService extends LogNodeServiceGrpc.LogNodeServiceImplBase {
  private static final Logger LOG = LoggerFactory.getLogger(LogNodeService.class);

  private final LogNodeHost host;
  private final LogNodeSettings settings;
  /**
   * The coordinator's key of update capabilities, and the one before it (a master that restarted
   * made a new one; updates it leased before still decide); null until the first registration.
   */
  private volatile byte[] updateKey;
  private volatile byte[] previousKey;

  LogNodeService(LogNodeHost host, LogNodeSettings settings) {
    this.host = host;
    this.settings = settings;
  }

  @Override
  public void putBase(PutBaseRequest request, StreamObserver<PutBaseResponse> out) {
    answer(out, "PutBase", () -> {
      checkAdministrator("set a stripe's parity");
      host.log(request.getLog()).putBase(request.getStripe(), request.getLog().getRow(),
          request.getVersion(), request.getParity().asReadOnlyByteBuffer());
      return PutBaseResponse.getDefaultInstance();
    });
  }

  /** The coordinator's key, as its last registration answered. */
  void updateKey(byte[] key) {
    byte[] current = updateKey;
    if (key.length > 0 && !java.util.Arrays.equals(key, current)) {
      previousKey = current;
      updateKey = key;
    }
  }

  /**
   * Refuses a delta or a decision without the capability of its update: only the coordinator,
   * which leased the stripe to the update, makes one.
   */
  private void checkCapability(long stripe, long updateId, long baseVersion, ByteString given) {
    byte[] key = updateKey;
    if (key == null) {
      throw new IllegalStateException("this log node has not registered with the coordinator"
          + " yet: try the update again in a few seconds");
    }
    byte[] proof = given.toByteArray();
    if (!UpdateCapability.holds(key, stripe, updateId, baseVersion, proof)
        && !UpdateCapability.holds(previousKey, stripe, updateId, baseVersion, proof)) {
      throw new SecurityException("update " + updateId + " of stripe " + stripe + " from version "
          + baseVersion + " carries no capability from the coordinator: only an update the"
          + " coordinator leased may change a parity");
    }
  }

  @Override
  public void appendDelta(AppendDeltaRequest request, StreamObserver<AppendDeltaResponse> out) {
    answer(out, "AppendDelta", () -> {
      checkCapability(request.getStripe(), request.getUpdateId(), request.getBaseVersion(),
          request.getCapability());
      host.log(request.getLog()).appendDelta(request.getStripe(), request.getUpdateId(),
          request.getBaseVersion(), request.getDataIndex(), request.getOffset(),
          request.getDelta().asReadOnlyByteBuffer());
      return AppendDeltaResponse.getDefaultInstance();
    });
  }

  @Override
  public void decide(DecideRequest request, StreamObserver<DecideResponse> out) {
    answer(out, "Decide", () -> {
      checkCapability(request.getStripe(), request.getUpdateId(), request.getBaseVersion(),
          request.getCapability());
      return DecideResponse.newBuilder().setChanged(apply(request)).build();
    });
  }

  @Override
  public void decideAll(DecideAllRequest request, StreamObserver<DecideAllResponse> out) {
    answer(out, "DecideAll", () -> {
      for (DecideRequest decision : request.getDecisionsList()) { // all checked before any applies
        checkCapability(decision.getStripe(), decision.getUpdateId(), decision.getBaseVersion(),
            decision.getCapability());
      }
      int changed = 0;
      for (DecideRequest decision : request.getDecisionsList()) {
        changed += apply(decision) ? 1 : 0;
      }
      return DecideAllResponse.newBuilder().setChanged(changed).build();
    });
  }

  /** Applies a checked outcome; whether it changed anything. */
  private boolean apply(DecideRequest decision) {
    LogNode log = host.log(decision.getLog());
    return decision.getCommitted()
        ? log.commit(decision.getStripe(), decision.getUpdateId(), decision.getNewVersion())
        : log.abort(decision.getStripe(), decision.getUpdateId());
  }

  @Override
  public void readParity(ReadParityRequest request, StreamObserver<ReadParityResponse> out) {
    answer(out, "ReadParity", () -> {
      LogNode log = host.log(request.getLog());
      OptionalLong held = log.version(request.getStripe());
      if (held.isEmpty()) {
        return ReadParityResponse.newBuilder().setOutcome(ReadParityResponse.Outcome.NOT_HELD)
            .build();
      }
      ParityRead read = log.readParity(request.getStripe(), request.getVersion());
      ReadParityResponse.Builder response = ReadParityResponse.newBuilder()
          .setHeldVersion(read.heldVersion());
      switch (read.status()) {
        case AT_VERSION:
          return response.setOutcome(ReadParityResponse.Outcome.AT_VERSION)
              .setParity(ByteString.copyFrom(read.parity())).build();
        case BEHIND:
          return response.setOutcome(ReadParityResponse.Outcome.BEHIND).build();
        default:
          return response.setOutcome(ReadParityResponse.Outcome.AHEAD).build();
      }
    });
  }

  @Override
  public void dropStripe(DropStripeRequest request, StreamObserver<DropStripeResponse> out) {
    answer(out, "DropStripe", () -> {
      checkAdministrator("drop a stripe");
      return DropStripeResponse.newBuilder()
          .setHeld(host.log(request.getLog()).dropStripe(request.getStripe())).build();
    });
  }

  @Override
  public void status(LogNodeStatusRequest request, StreamObserver<LogNodeStatusResponse> out) {
    answer(out, "Status", () -> LogNodeStatusResponse.newBuilder().addAllLogs(host.status())
        .build());
  }

  /** Refuses a caller who is not Alluxio's superuser or in its supergroup (security on). */
  private void checkAdministrator(String what) throws IOException {
    if (!SecurityUtils.isSecurityEnabled(settings.conf)) {
      return;
    }
    User user = AuthenticatedClientUser.getOrNull();
    if (user == null) {
      throw new SecurityException("the request names no user: connect through Alluxio's"
          + " authenticated channel");
    }
    String name = user.getName();
    if (name.equals(ServerUserState.global().getUser().getName())) {
      return;
    }
    String supergroup =
        settings.conf.getString(PropertyKey.SECURITY_AUTHORIZATION_PERMISSION_SUPERGROUP);
    List<String> groups;
    try {
      groups = CommonUtils.getGroups(name, settings.conf);
    } catch (IOException unknown) {
      groups = List.of();
    }
    if (!groups.contains(supergroup)) {
      throw new SecurityException("user " + name + " may not " + what + ": only Alluxio's"
          + " superuser and its supergroup maintain packed stripes");
    }
  }

  /** Runs one call and answers it, or fails it with the status its error maps to. */
  private static <T> void answer(StreamObserver<T> out, String name, Callable<T> call) {
    T response;
    try {
      response = call.call();
    } catch (IllegalArgumentException e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    } catch (IllegalStateException e) {
      out.onError(Status.FAILED_PRECONDITION.withDescription(e.getMessage())
          .asRuntimeException());
      return;
    } catch (SecurityException e) {
      out.onError(Status.PERMISSION_DENIED.withDescription(e.getMessage()).asRuntimeException());
      return;
    } catch (UncheckedIOException e) {
      LOG.warn("eccache log node: {} failed on its disk: {}", name, e.toString());
      out.onError(Status.UNAVAILABLE.withDescription("the log node's disk failed: "
          + e.getMessage()).asRuntimeException());
      return;
    } catch (Exception e) {
      LOG.error("eccache log node: {} failed", name, e);
      out.onError(Status.INTERNAL.withDescription(name + " failed: " + e).asRuntimeException());
      return;
    }
    out.onNext(response);
    out.onCompleted();
  }
}
