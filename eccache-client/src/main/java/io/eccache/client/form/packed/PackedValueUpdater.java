package io.eccache.client.form.packed;

import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.DataLossException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.UnavailableException;
import com.google.protobuf.ByteString;
import io.eccache.client.form.FormIo;
import io.eccache.client.form.UpdatePhases;
import io.eccache.client.form.UpdatePhases.Phase;
import io.eccache.client.form.ValueUpdater;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.CommitUpdateRequest;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.LogParity;
import io.eccache.common.proto.PackedSlot;
import io.eccache.common.proto.PackedUpdate;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.Stripe;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Updates a packed value where it is (docs/lognode.md, "Updates"). Hybrid (LogECMem): reads the
 * data unit and P1, writes their next version with the new value and P1 + ΔD, sends ΔD to the r - 1
 * log nodes (acked once buffered), commits at the coordinator, then tells the log nodes the
 * outcome. In-place (IPMem): reads and writes the data unit and all r parities, no log node. A unit
 * is immutable in Alluxio, so "in place" is a new file per rewritten unit, named by the update's
 * version; the commit switches the stripe to them at once.
 *
 * <p>Exactly 2 unit reads, 2 unit writes and r - 1 delta sends per hybrid update; r + 1 reads and
 * writes per in-place one. A failure before the commit aborts the update (the coordinator's lease,
 * the log nodes' deltas): the previous version stays.
 */
final class PackedValueUpdater implements ValueUpdater {
  private static final Logger LOG = LoggerFactory.getLogger(PackedValueUpdater.class);

  @Override
  public boolean handles(AllocateResponse allocation) {
    return allocation.hasUpdate();
  }

  @Override
  public void update(String key, byte[] value, byte[] sha256, AllocateResponse allocation,
      FormIo io, UpdatePhases.Clock clock) throws IOException {
    PackedUpdate u = allocation.getUpdate();
    Stripe stripe = u.getStripe();
    int k = stripe.getDataUnits();
    int r = stripe.getParityUnits();
    int unitSize = (int) stripe.getUnitSize();
    PackedSlot slot = u.getSlot();
    List<String> sentTo = new ArrayList<>();
    boolean commitAsked = false;
    try {
      List<Split> rewritten = new ArrayList<>();
      for (int i : u.getRewriteList()) {
        rewritten.add(u.getSplits(i));
      }
      List<IOException> failures = new ArrayList<>();
      List<byte[]> old = io.readRanges(rewritten, 0, unitSize, failures);
      clock.lap(Phase.READ_UNITS);
      for (int j = 0; j < old.size(); j++) {
        int i = u.getRewrite(j);
        if (old.get(j) == null) {
          throw failures.isEmpty() ? new UnavailableException("unit " + i + " unreadable")
              : failures.get(0);
        }
        if (StripeSeal.crc(old.get(j), 0, unitSize) != stripe.getUnits(i).getCrc32C()) {
          throw new DataLossException("unit " + rewritten.get(j).getPath() + " of stripe "
              + stripe.getId() + " fails its CRC32C: not updated; the stripe needs a repair");
        }
      }
      // ΔD over the slot, and the next version of the data unit and of each cached parity.
      byte[] delta = new byte[slot.getLength()];
      byte[] unit = old.get(0);
      for (int b = 0; b < delta.length; b++) {
        delta[b] = (byte) (unit[slot.getOffset() + b] ^ value[b]);
      }
      System.arraycopy(value, 0, unit, slot.getOffset(), value.length);
      int[] rows = new int[old.size() - 1];
      ByteBuffer[] ranges = new ByteBuffer[rows.length];
      for (int j = 1; j < old.size(); j++) {
        rows[j - 1] = u.getRewrite(j) - k;
        ranges[j - 1] = ByteBuffer.wrap(old.get(j), slot.getOffset(), slot.getLength()).slice();
      }
      StripeCode.coder(k, r).encodeDelta(u.getUnit(), ByteBuffer.wrap(delta), rows, ranges);
      List<FormIo.NewFile> files = new ArrayList<>();
      CommitUpdateRequest.Builder commit = CommitUpdateRequest.newBuilder().setKey(key)
          .setUpdateId(u.getUpdateId()).setValueCrc32C(StripeSeal.crc(value, 0, value.length))
          .setSha256(ByteString.copyFrom(sha256));
      for (int j = 0; j < old.size(); j++) {
        files.add(u.getFilesCreated()
            ? FormIo.NewFile.created(u.getRewritePaths(j), rewritten.get(j).getWorker(), old.get(j))
            : new FormIo.NewFile(u.getRewritePaths(j), rewritten.get(j).getWorker(), old.get(j)));
        commit.addUnitCrc32C(StripeSeal.crc(old.get(j), 0, unitSize));
      }
      clock.lap(Phase.COMPUTE);
      io.writeFiles(files);
      clock.lap(Phase.WRITE_UNITS);
      for (LogParity parity : stripe.getLogParitiesList()) {
        sentTo.add(parity.getLogNode());
        io.logNodes().appendDelta(parity.getLogNode(), AppendDeltaRequest.newBuilder()
            .setLog(StripeCode.log(stripe, parity.getRow()))
            .setStripe(stripe.getId()).setUpdateId(u.getUpdateId())
            .setBaseVersion(stripe.getVersion()).setDataIndex(u.getUnit())
            .setOffset(slot.getOffset()).setDelta(ByteString.copyFrom(delta))
            .setCapability(u.getCapability()).build());
      }
      clock.lap(Phase.LOG_ACKS);
      commitAsked = true;
      long version = io.coordinator().commitUpdate(commit.build());
      clock.lap(Phase.COMMIT);
      decide(io, stripe, stripe.getVersion(), u.getUpdateId(), u.getCapability(), true, version);
      clock.lap(Phase.DECIDE);
    } catch (IOException | RuntimeException e) {
      try {
        io.coordinator().abortUpdate(key, u.getUpdateId());
      } catch (AlluxioStatusException ignored) {
        // the lease expires by itself
      }
      // A commit that went unanswered may still have taken effect: its deltas stay undecided
      // (the nodes then serve the stripe behind, never wrong) rather than dropped.
      if (!sentTo.isEmpty() && !(commitAsked && e instanceof DeadlineExceededException)) {
        decide(io, stripe, stripe.getVersion(), u.getUpdateId(), u.getCapability(), false, 0);
      }
      throw e;
    }
  }

  /**
   * Tells the stripe's log nodes an update's outcome. Best effort: a node that misses a commit
   * serves the stripe behind until a reader or the next update tells it (the stripe record names
   * the update that made its version, and its capability), never a wrong parity.
   *
   * @param baseVersion the version the update started from
   * @param capability the update's, from the coordinator
   */
  static void decide(FormIo io, Stripe stripe, long baseVersion, long updateId,
      ByteString capability, boolean committed, long version) {
    for (LogParity parity : stripe.getLogParitiesList()) {
      try {
        io.logNodes().decide(parity.getLogNode(), DecideRequest.newBuilder()
            .setLog(StripeCode.log(stripe, parity.getRow()))
            .setStripe(stripe.getId()).setUpdateId(updateId).setCommitted(committed)
            .setNewVersion(version).setBaseVersion(baseVersion).setCapability(capability)
            .build());
      } catch (AlluxioStatusException e) {
        LOG.debug("eccache: telling log node {} update {} of stripe {} {}: {}",
            parity.getLogNode(), updateId, stripe.getId(), committed ? "committed" : "aborted",
            e.toString());
      }
    }
  }
}
