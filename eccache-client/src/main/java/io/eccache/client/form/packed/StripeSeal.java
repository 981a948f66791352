package io.eccache.client.form.packed;

import alluxio.exception.status.NotFoundException;
import com.google.protobuf.ByteString;
import io.eccache.client.form.Maintainer;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PackedSeal;
import io.eccache.common.proto.PackedSealed;
import io.eccache.common.proto.PackedSlot;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.SealValue;
import io.eccache.common.proto.StripeUnit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;

/**
 * A maintainer's SEAL_STRIPE step: packs the values the coordinator grouped into a new stripe's k
 * units (those still current, in order, whole), encodes them, writes the k data units and P1 as
 * unit files on their workers, hands parities 2..r to their log nodes as the stripe's version 1,
 * and reports the units and their slots. The coordinator records the stripe only after all of it
 * is written, and moves only the values that are still the version packed.
 */
final class StripeSeal {
  private StripeSeal() {}

  static long run(MaintenanceTask task, Maintainer maintainer, ApplyChangeRequest.Builder report)
      throws IOException {
    PackedSeal seal = task.getSeal();
    int k = seal.getDataUnits();
    int r = seal.getParityUnits();
    int unitSize = (int) seal.getUnitSize();
    long moved = 0;
    byte[][] data = new byte[k][unitSize];
    List<StripeUnit.Builder> units = new ArrayList<>();
    for (int u = 0; u < k; u++) {
      StripeUnit.Builder unit = StripeUnit.newBuilder();
      int offset = 0;
      for (SealValue v : seal.getUnits(u).getValuesList()) {
        byte[] value = currentValue(v, maintainer);
        if (value == null || offset + value.length > unitSize) {
          continue; // replaced or deleted since it was queued: its room stays zeros
        }
        System.arraycopy(value, 0, data[u], offset, value.length);
        unit.addSlots(PackedSlot.newBuilder().setKey(v.getKey()).setWriteId(v.getWriteId())
            .setOffset(offset).setLength(value.length).setCrc32C(crc(value, 0, value.length)));
        offset += value.length;
        moved += value.length;
      }
      units.add(unit);
    }
    byte[][] parity = StripeCode.encode(data, r);
    units.add(StripeUnit.newBuilder());
    List<Future<Void>> writes = new ArrayList<>();
    PackedSealed.Builder sealed = PackedSealed.newBuilder();
    for (int i = 0; i <= k; i++) {
      byte[] bytes = i < k ? data[i] : parity[0];
      String path = StripeCode.unitPath(seal.getDirectory(), i, k, 1);
      alluxio.grpc.WorkerNetAddress worker = seal.getWorkers(i);
      maintainer.acquireBandwidth(bytes.length);
      writes.add(maintainer.io().submit(() -> {
        maintainer.writeFile(path, worker, bytes);
        return null;
      }));
      sealed.addUnits(units.get(i).setPath(path).setCrc32C(crc(bytes, 0, bytes.length))
          .setWorker(worker));
      moved += bytes.length;
    }
    for (int row = 1; row < r; row++) {
      maintainer.logNodes().putBase(seal.getLogNodes(row - 1), PutBaseRequest.newBuilder()
          .setLog(StripeCode.log(seal.getNamespace(), k, r, row, unitSize))
          .setStripe(seal.getStripe()).setVersion(1)
          .setParity(ByteString.copyFrom(parity[row])).build());
      moved += unitSize;
    }
    awaitAll(writes, maintainer, seal);
    report.setSealed(sealed);
    return moved;
  }

  /** The value {@code v} names, if its key still holds that version unpacked; else null. */
  private static byte[] currentValue(SealValue v, Maintainer maintainer) throws IOException {
    LookupResponse lookup;
    try {
      lookup = maintainer.lookup(v.getKey());
    } catch (NotFoundException deleted) {
      return null;
    }
    Layout layout = lookup.getLayout();
    if (!layout.getWriteId().equals(v.getWriteId()) || layout.getPacked().getStripe() != 0) {
      return null;
    }
    return maintainer.readObject(lookup);
  }

  private static void awaitAll(List<Future<Void>> writes, Maintainer maintainer, PackedSeal seal)
      throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maintainer.ioTimeoutMs());
    for (Future<Void> write : writes) {
      try {
        write.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof IOException ? (IOException) e.getCause()
            : new IOException("writing a unit of stripe " + seal.getStripe() + " failed: "
                + e.getCause(), e.getCause());
      } catch (TimeoutException e) {
        throw new IOException("writing the units of stripe " + seal.getStripe() + " took more"
            + " than " + maintainer.ioTimeoutMs() + " ms (alluxio.user.eccache.io.timeout)");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while sealing stripe " + seal.getStripe(), e);
      }
    }
  }

  static int crc(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
