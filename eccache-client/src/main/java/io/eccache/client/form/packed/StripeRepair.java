package io.eccache.client.form.packed;

import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.DataLossException;
import alluxio.exception.status.UnavailableException;
import com.google.protobuf.ByteString;
import io.eccache.client.form.FormIo;
import io.eccache.client.form.Maintainer;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.LogParity;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PackedRepair;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.ReadParityResponse;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.Stripe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A maintainer's REPAIR_STRIPE step: rebuilds a stripe's lost units and log parities at its
 * version. It reads the surviving cached units whole; when fewer than k survive it asks the
 * surviving log nodes for their parity at the stripe's version (LogECMem's log-assisted repair);
 * it decodes the lost units, checks each against the stripe's recorded CRC32C, writes them to
 * their new workers, and re-encodes a lost log parity from the k data units onto its new node.
 * The coordinator records the new places only if the stripe did not move on meanwhile.
 */
final class StripeRepair {
  private StripeRepair() {}

  static long run(MaintenanceTask task, Maintainer maintainer, ApplyChangeRequest.Builder report)
      throws IOException {
    PackedRepair repair = task.getRepair();
    Stripe stripe = repair.getStripe();
    int k = stripe.getDataUnits();
    int r = stripe.getParityUnits();
    int unitSize = (int) stripe.getUnitSize();
    Set<Integer> lost = new HashSet<>(repair.getLostUnitsList());
    Set<Integer> lostRows = new HashSet<>(repair.getLostRowsList());
    byte[][] units = new byte[k + r][];
    List<Split> survivors = new ArrayList<>();
    for (int i = 0; i < stripe.getUnitsCount(); i++) {
      if (!lost.contains(i)) {
        survivors.add(repair.getSplits(i));
      }
    }
    List<IOException> failures = new ArrayList<>();
    List<byte[]> read = maintainer.readRanges(survivors, 0, unitSize, failures);
    long moved = 0;
    int known = 0;
    for (int j = 0; j < survivors.size(); j++) {
      int i = survivors.get(j).getIndex();
      byte[] bytes = read.get(j);
      if (bytes != null && StripeSeal.crc(bytes, 0, unitSize) == stripe.getUnits(i).getCrc32C()) {
        units[i] = bytes;
        known++;
        moved += unitSize;
      }
    }
    // Log-assisted: the surviving log nodes' parities, when the cached parts are too few.
    for (LogParity p : stripe.getLogParitiesList()) {
      if (known >= k) {
        break;
      }
      if (lostRows.contains(p.getRow())) {
        continue;
      }
      ReadParityResponse answer = readParity(maintainer, stripe, p, failures);
      if (answer != null) {
        units[k + p.getRow()] = answer.getParity().toByteArray();
        known++;
        moved += unitSize;
      }
    }
    if (known < k) {
      UnavailableException out = new UnavailableException("stripe " + stripe.getId() + " v"
          + stripe.getVersion() + ": only " + known + " of its parts could be read, fewer than"
          + " k = " + k + "; its repair waits for more of them");
      failures.forEach(out::addSuppressed);
      throw out;
    }
    // Every data unit, for the lost units and for re-encoding lost log parities.
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < k + r; i++) {
      boolean cachedUnit = i < stripe.getUnitsCount();
      if (units[i] == null && (i < k || (cachedUnit && lost.contains(i)))) {
        missing.add(i);
      }
    }
    if (!missing.isEmpty()) {
      byte[][] rebuilt = StripeCode.decode(units, k, r,
          missing.stream().mapToInt(Integer::intValue).toArray());
      for (int j = 0; j < missing.size(); j++) {
        units[missing.get(j)] = rebuilt[j];
      }
    }
    List<FormIo.NewFile> files = new ArrayList<>();
    for (int j = 0; j < repair.getLostUnitsCount(); j++) {
      int i = repair.getLostUnits(j);
      if (StripeSeal.crc(units[i], 0, unitSize) != stripe.getUnits(i).getCrc32C()) {
        throw new DataLossException("unit " + i + " of stripe " + stripe.getId() + " v"
            + stripe.getVersion() + " rebuilt does not match its recorded CRC32C: its parts"
            + " disagree; not repaired");
      }
      files.add(new FormIo.NewFile(repair.getUnitPaths(j), repair.getUnitWorkers(j), units[i]));
      maintainer.acquireBandwidth(unitSize);
      moved += unitSize;
    }
    maintainer.writeFiles(files);
    if (!lostRows.isEmpty()) {
      byte[][] data = new byte[k][];
      System.arraycopy(units, 0, data, 0, k);
      byte[][] parity = StripeCode.encode(data, r);
      for (int j = 0; j < repair.getLostRowsCount(); j++) {
        int row = repair.getLostRows(j);
        maintainer.logNodes().putBase(repair.getRowNodes(j), PutBaseRequest.newBuilder()
            .setLog(StripeCode.log(stripe, row))
            .setStripe(stripe.getId()).setVersion(stripe.getVersion())
            .setParity(ByteString.copyFrom(parity[row])).build());
        moved += unitSize;
      }
    }
    return moved;
  }

  /** A surviving log node's parity at the stripe's version, or null (its failure noted). */
  private static ReadParityResponse readParity(FormIo io, Stripe stripe, LogParity p,
      List<IOException> failures) {
    try {
      ReadParityResponse answer = io.logNodes().readParity(p.getLogNode(),
          StripeCode.readParity(stripe, p.getRow()));
      if (answer.getOutcome() == ReadParityResponse.Outcome.AT_VERSION) {
        return answer;
      }
      failures.add(new UnavailableException("log node " + p.getLogNode() + " holds stripe "
          + stripe.getId() + " at " + answer.getOutcome() + ", not version "
          + stripe.getVersion()));
    } catch (AlluxioStatusException e) {
      failures.add(e);
    }
    return null;
  }
}
