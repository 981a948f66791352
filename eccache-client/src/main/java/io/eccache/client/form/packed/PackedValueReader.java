package io.eccache.client.form.packed;

import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.DataLossException;
import alluxio.exception.status.UnavailableException;
import io.eccache.client.form.FormIo;
import io.eccache.client.form.ValueReader;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LogParity;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.PackedSlot;
import io.eccache.common.proto.PackedValue;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.Stripe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a packed value (LogECMem's reads): normally one range read of its slot in its unit file,
 * checked by the slot's CRC32C. When that unit cannot be read (its worker is lost, or the read
 * fails or comes back wrong), the unit is rebuilt: from the other k - 1 data units and P1 (one
 * failure: no log node touched), else with parity rows the log nodes serve at the stripe's
 * version (a node that missed the commit of the update that made it is told it first). A slot
 * that names another key or version is never returned.
 */
final class PackedValueReader implements ValueReader {
  @Override
  public byte[] read(LookupResponse lookup, FormIo io) throws IOException {
    Layout layout = lookup.getLayout();
    Stripe stripe = lookup.getStripe();
    PackedValue at = layout.getPacked();
    PackedSlot slot = slotOf(layout, stripe);
    Split unit = lookup.getSplits(at.getUnit());
    IOException failed = null;
    if (unit.getLive() && unit.hasStatus()) {
      try {
        byte[] value = io.readRange(unit, slot.getOffset(), slot.getLength());
        if (StripeSeal.crc(value, 0, value.length) == slot.getCrc32C()) {
          return value;
        }
        failed = new DataLossException(unit.getPath() + " holds other bytes than '"
            + layout.getKey() + "' at its slot (CRC32C mismatch)");
      } catch (IOException e) {
        failed = e;
      }
    }
    byte[] rebuilt = rebuild(lookup, at.getUnit(), io, failed);
    byte[] value = Arrays.copyOfRange(rebuilt, slot.getOffset(),
        slot.getOffset() + slot.getLength());
    if (StripeSeal.crc(value, 0, value.length) != slot.getCrc32C()) {
      throw new DataLossException("'" + layout.getKey() + "' rebuilt from stripe "
          + stripe.getId() + " (version " + stripe.getVersion() + ") fails its CRC32C: the"
          + " stripe's units or parities disagree");
    }
    return value;
  }

  /** The slot the layout points at, checked to hold this key's version. */
  private static PackedSlot slotOf(Layout layout, Stripe stripe) throws IOException {
    PackedValue at = layout.getPacked();
    if (at.getUnit() >= stripe.getDataUnits() || at.getUnit() >= stripe.getUnitsCount()
        || at.getSlot() >= stripe.getUnits(at.getUnit()).getSlotsCount()) {
      throw new DataLossException("'" + layout.getKey() + "' points at slot " + at.getSlot()
          + " of unit " + at.getUnit() + ", which stripe " + stripe.getId() + " does not have");
    }
    PackedSlot slot = stripe.getUnits(at.getUnit()).getSlots(at.getSlot());
    if (!slot.getKey().equals(layout.getKey()) || !slot.getWriteId().equals(layout.getWriteId())) {
      throw new DataLossException("slot " + at.getSlot() + " of unit " + at.getUnit()
          + " of stripe " + stripe.getId() + " holds '" + slot.getKey() + "' (write "
          + slot.getWriteId() + "), not '" + layout.getKey() + "' (write " + layout.getWriteId()
          + ")");
    }
    return slot;
  }

  /**
   * Rebuilds data unit {@code lost}: the other cached units first (k - 1 data units and P1 are
   * enough), then parity rows from the log nodes at the stripe's version.
   */
  private static byte[] rebuild(LookupResponse lookup, int lost, FormIo io, IOException cause)
      throws IOException {
    Stripe stripe = lookup.getStripe();
    int k = stripe.getDataUnits();
    int r = stripe.getParityUnits();
    int unitSize = (int) stripe.getUnitSize();
    byte[][] units = new byte[k + r][];
    List<Split> cached = new ArrayList<>();
    for (int i = 0; i < stripe.getUnitsCount() && i < lookup.getSplitsCount(); i++) {
      Split s = lookup.getSplits(i);
      if (i != lost && s.getLive() && s.hasStatus()) {
        cached.add(s);
      }
    }
    List<IOException> failures = new ArrayList<>();
    if (cause != null) {
      failures.add(cause);
    }
    List<byte[]> read = io.readRanges(cached, 0, unitSize, failures);
    int known = 0;
    for (int j = 0; j < cached.size(); j++) {
      int index = cached.get(j).getIndex();
      byte[] bytes = read.get(j);
      if (bytes != null && StripeSeal.crc(bytes, 0, unitSize)
          == stripe.getUnits(index).getCrc32C()) {
        units[index] = bytes;
        known++;
      }
    }
    for (LogParity parity : stripe.getLogParitiesList()) {
      if (known >= k) {
        break;
      }
      try {
        ReadParityRequest request = StripeCode.readParity(stripe, parity.getRow());
        ReadParityResponse answer = io.logNodes().readParity(parity.getLogNode(), request);
        if (answer.getOutcome() == ReadParityResponse.Outcome.BEHIND
            && answer.getHeldVersion() == stripe.getVersion() - 1
            && !stripe.getLastUpdateId().isEmpty()) {
          // The update that made this version committed, and its writer did not tell this
          // node (it stopped after the commit): the stripe record says so; then read again.
          PackedValueUpdater.decide(io, stripe, stripe.getVersion() - 1,
              Long.parseLong(stripe.getLastUpdateId()), stripe.getLastUpdateCapability(), true,
              stripe.getVersion());
          answer = io.logNodes().readParity(parity.getLogNode(), request);
        }
        if (answer.getOutcome() == ReadParityResponse.Outcome.AT_VERSION) {
          units[k + parity.getRow()] = answer.getParity().toByteArray();
          known++;
        } else {
          failures.add(new UnavailableException("log node " + parity.getLogNode() + " holds"
              + " stripe " + stripe.getId() + " at " + answer.getOutcome() + " (version "
              + answer.getHeldVersion() + "), not version " + stripe.getVersion()));
        }
      } catch (AlluxioStatusException e) {
        failures.add(e);
      }
    }
    if (known < k) {
      UnavailableException out = new UnavailableException("'" + lookup.getLayout().getKey()
          + "' cannot be read: its unit " + lost + " of stripe " + stripe.getId() + " is lost and"
          + " only " + known + " of the stripe's other units and parities could be read, fewer"
          + " than k = " + k + "; more of its workers or log nodes must come back");
      failures.forEach(out::addSuppressed);
      throw out;
    }
    return StripeCode.decode(units, k, r, lost);
  }
}
