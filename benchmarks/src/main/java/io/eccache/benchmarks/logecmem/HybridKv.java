package io.eccache.benchmarks.logecmem;

import com.google.protobuf.ByteString;
import io.eccache.common.UpdateCapability;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.DecideAllRequest;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.LogId;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * LogECMem's HybridPL: data units and the XOR parity P1 in DRAM nodes, updated in place; P2..Pr on
 * r − 1 log nodes, which get only the data delta. An update reads the old value and P1 (2 gets),
 * writes the new value and P1 ⊕ Δ (2 sets) and sends Δ to the r − 1 log nodes (acked once
 * buffered). The proxy then tells the log nodes the update committed, off the update's path and
 * {@link #DECISION_BATCH} notices to a call (the paper's log nodes get no notices at all: eccache's
 * never merge a delta before its commit; batched, as the product's design batches outcomes, the
 * notices do not double the calls each log node answers).
 */
final class HybridKv extends StripedKv {
  /** Commit notices per call to a log node. */
  static final int DECISION_BATCH = 32;

  private long nextUpdate;
  /** Notices not sent yet, per log node (parity row − 1). */
  private final List<List<DecideRequest>> undecided = new ArrayList<>();
  /** Notices sent and not yet answered: a degraded read or the run's end waits for them. */
  private final List<Future<?>> deciding = new ArrayList<>();

  HybridKv(Testbed bed) {
    super(bed);
    for (int row = 1; row < r; row++) {
      undecided.add(new ArrayList<>());
    }
  }

  @Override
  public String name() {
    return "hybrid";
  }

  @Override
  int dramParities() {
    return 1;
  }

  private LogId log(int row) {
    return LogId.newBuilder().setNamespace(bed.namespace).setDataUnits(k).setParityUnits(r)
        .setRow(row).setUnitSize(bed.unitBytes).build();
  }

  @Override
  void writeParities(Stripe stripe, ByteBuffer[] parity) throws IOException {
    List<Callable<Void>> writes = new ArrayList<>();
    writes.add(() -> {
      bed.dram.get(stripe.parityNodes[0]).set(stripe.parityItem(0), parity[0].array());
      return null;
    });
    counts.add(OpCounts.Kind.SET, 1);
    for (int row = 1; row < r; row++) {
      PutBaseRequest base = PutBaseRequest.newBuilder().setLog(log(row)).setStripe(stripe.id)
          .setVersion(stripe.version).setParity(ByteString.copyFrom(parity[row].array())).build();
      String node = bed.logNodes.get(row - 1);
      writes.add(() -> {
        bed.logClient.putBase(node, base);
        return null;
      });
      counts.add(OpCounts.Kind.LOG_BASE, 1);
    }
    run(writes);
  }

  @Override
  void updateSealed(Slot slot, byte[] value) throws IOException {
    Stripe stripe = slot.stripe;
    int p1Node = stripe.parityNodes[0];
    byte[][] old = io.getAll(new int[] {slot.node, p1Node},
        new String[] {slot.item, stripe.parityItem(0)});
    long parityStart = System.nanoTime();
    byte[] delta = xor(old[0], value);
    byte[] p1 = xor(old[1], delta);
    long updateId = ++nextUpdate;
    long base = stripe.version;
    byte[] capability = UpdateCapability.of(bed.updateKey, stripe.id, updateId, base);
    List<Callable<Void>> writes = new ArrayList<>();
    writes.add(() -> {
      bed.dram.get(p1Node).set(stripe.parityItem(0), p1);
      return null;
    });
    for (int row = 1; row < r; row++) {
      AppendDeltaRequest append = AppendDeltaRequest.newBuilder().setLog(log(row))
          .setStripe(stripe.id).setUpdateId(updateId).setBaseVersion(base)
          .setDataIndex(slot.index).setOffset(0).setDelta(ByteString.copyFrom(delta))
          .setCapability(ByteString.copyFrom(capability)).build();
      String node = bed.logNodes.get(row - 1);
      writes.add(() -> {
        bed.logClient.appendDelta(node, append);
        return null;
      });
    }
    counts.add(OpCounts.Kind.SET, 2);
    counts.add(OpCounts.Kind.LOG_APPEND, r - 1);
    if (bed.issue == Testbed.Issue.SERIAL) {
      run(writes);
      lastParityNanos = System.nanoTime() - parityStart; // the artifact's timer: parity I/O only
      bed.dram.get(slot.node).set(slot.item, value);
    } else {
      writes.add(() -> {
        bed.dram.get(slot.node).set(slot.item, value);
        return null;
      });
      run(writes);
      lastParityNanos = System.nanoTime() - parityStart;
    }
    stripe.version = base + 1;
    decide(stripe, updateId, base, capability);
  }

  /** Queues the notice that the update committed for every log node; a full batch goes. */
  private void decide(Stripe stripe, long updateId, long base, byte[] capability) {
    for (int row = 1; row < r; row++) {
      undecided.get(row - 1).add(DecideRequest.newBuilder().setLog(log(row))
          .setStripe(stripe.id).setUpdateId(updateId).setCommitted(true)
          .setNewVersion(base + 1).setBaseVersion(base)
          .setCapability(ByteString.copyFrom(capability)).build());
    }
    if (undecided.get(0).size() >= DECISION_BATCH) {
      sendDecisions();
    }
  }

  /** Sends the queued notices, one call per log node, in the background. */
  private void sendDecisions() {
    deciding.removeIf(Future::isDone);
    for (int row = 1; row < r; row++) {
      List<DecideRequest> batch = undecided.get(row - 1);
      if (!batch.isEmpty()) {
        DecideAllRequest request = DecideAllRequest.newBuilder().addAllDecisions(batch).build();
        batch.clear();
        String node = bed.logNodes.get(row - 1);
        deciding.add(bed.pool.submit(() -> bed.logClient.decideAll(node, request)));
      }
    }
  }

  /** Every notice sent and answered: the log nodes hold every stripe at its version. */
  private void awaitDecisions() throws IOException {
    sendDecisions();
    for (Future<?> call : deciding) {
      await(call, "the log nodes' commit notices");
    }
    deciding.clear();
  }

  /** The last notices, sent and answered: their time is deferred work of the updates. */
  @Override
  public long finishRun() throws IOException {
    long start = System.nanoTime();
    awaitDecisions();
    return System.nanoTime() - start;
  }

  @Override
  byte[] logParity(Stripe stripe, int row) throws IOException {
    awaitDecisions();
    String node = bed.logNodes.get(row - 1);
    ReadParityResponse answer = bed.logClient.readParity(node, ReadParityRequest.newBuilder()
        .setLog(log(row)).setStripe(stripe.id).setVersion(stripe.version).build());
    if (answer.getOutcome() != ReadParityResponse.Outcome.AT_VERSION) {
      throw new IOException("log node " + node + " holds stripe " + stripe.id + " at "
          + answer.getOutcome() + " " + answer.getHeldVersion() + ", not at version "
          + stripe.version);
    }
    return answer.getParity().toByteArray();
  }

  /** Runs the calls one after another, or at once on the testbed's threads. */
  private void run(List<Callable<Void>> calls) throws IOException {
    if (bed.issue == Testbed.Issue.SERIAL) {
      for (Callable<Void> call : calls) {
        try {
          call.call();
        } catch (IOException e) {
          throw e;
        } catch (Exception e) {
          throw new IOException(e);
        }
      }
      return;
    }
    List<Future<Void>> running = new ArrayList<>();
    for (int i = 1; i < calls.size(); i++) {
      running.add(bed.pool.submit(calls.get(i)));
    }
    try {
      calls.get(0).call(); // the first on this thread
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
    for (Future<Void> call : running) {
      await(call, "a write of the update");
    }
  }

  private static void await(Future<?> call, String what) throws IOException {
    try {
      call.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException ? (IOException) e.getCause()
          : new IOException(what + " failed", e.getCause());
    } catch (TimeoutException e) {
      throw new IOException(what + " had no answer within 30 s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + what, e);
    }
  }
}
