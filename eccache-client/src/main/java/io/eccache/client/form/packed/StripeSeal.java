package io.eccache.client.form.packed;

import alluxio.exception.status.NotFoundException;
import com.google.protobuf.ByteString;
import io.eccache.client.form.FormIo;
import io.eccache.client.form.Maintainer;
import io.eccache.common.PackedUnits;
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
import java.util.zip.CRC32C;

/**
 * A maintainer's SEAL_STRIPE step: packs the values the coordinator grouped into a new stripe's k
 * units (those still current, in order, whole), encodes them, writes the k data units and the
 * cached parities (P1, or all r in an in-place namespace) as unit files on their workers, hands
 * the other parities to their log nodes as the stripe's version 1,
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
    // The cached parities (P1, or all r in an in-place namespace) as unit files; the rest on
    // the log nodes.
    int cached = seal.getWorkersCount() - k;
    List<FormIo.NewFile> files = new ArrayList<>();
    PackedSealed.Builder sealed = PackedSealed.newBuilder();
    for (int i = 0; i < k + cached; i++) {
      byte[] bytes = i < k ? data[i] : parity[i - k];
      String path = PackedUnits.path(seal.getDirectory(), i, k, 1);
      files.add(new FormIo.NewFile(path, seal.getWorkers(i), bytes));
      StripeUnit.Builder unit = i < k ? units.get(i) : StripeUnit.newBuilder();
      sealed.addUnits(unit.setPath(path).setCrc32C(crc(bytes, 0, bytes.length))
          .setWorker(seal.getWorkers(i)));
      maintainer.acquireBandwidth(bytes.length);
      moved += bytes.length;
    }
    maintainer.writeFiles(files);
    for (int row = cached; row < r; row++) {
      maintainer.logNodes().putBase(seal.getLogNodes(row - cached), PutBaseRequest.newBuilder()
          .setLog(StripeCode.log(seal.getNamespace(), k, r, row, unitSize))
          .setStripe(seal.getStripe()).setVersion(1)
          .setParity(ByteString.copyFrom(parity[row])).build());
      moved += unitSize;
    }
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

  static int crc(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
