package io.eccache.client.form.packed;

import alluxio.exception.status.UnavailableException;
import io.eccache.client.form.FormIo;
import io.eccache.client.form.RedundancyCheck;
import io.eccache.common.proto.LogParity;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.ReadParityResponse;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.Stripe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Scrubs a packed value's stripe: reads its k data units and cached parities, and its log nodes'
 * parity rows at the stripe's version, and checks each parity against a fresh encode of the data
 * (and each unit against the CRC32C its stripe records). What the update paths promise, checked
 * after the fact: every delta merged, none lost, none applied twice.
 */
final class StripeScrub implements RedundancyCheck {
  @Override
  public List<String> check(LookupResponse lookup, FormIo io) throws IOException {
    Stripe stripe = lookup.getStripe();
    int k = stripe.getDataUnits();
    int r = stripe.getParityUnits();
    int unitSize = (int) stripe.getUnitSize();
    String name = "stripe " + stripe.getId() + " v" + stripe.getVersion();
    List<Split> units = lookup.getSplitsList().subList(0, stripe.getUnitsCount());
    List<IOException> failures = new ArrayList<>();
    List<byte[]> read = io.readRanges(units, 0, unitSize, failures);
    if (!failures.isEmpty()) {
      UnavailableException out = new UnavailableException(name + ": " + failures.size()
          + " of its " + units.size() + " cached units could not be read; scrub it once its"
          + " workers are back or it is repaired");
      failures.forEach(out::addSuppressed);
      throw out;
    }
    List<String> found = new ArrayList<>();
    for (int i = 0; i < units.size(); i++) {
      if (StripeSeal.crc(read.get(i), 0, unitSize) != stripe.getUnits(i).getCrc32C()) {
        found.add(name + ": unit " + i + " (" + units.get(i).getPath() + ") fails its CRC32C");
      }
    }
    byte[][] parity = StripeCode.encode(read.subList(0, k).toArray(new byte[0][]), r);
    for (int i = k; i < units.size(); i++) {
      if (!Arrays.equals(parity[i - k], read.get(i))) {
        found.add(name + ": cached parity row " + (i - k) + " differs from a fresh encode");
      }
    }
    for (LogParity p : stripe.getLogParitiesList()) {
      ReadParityResponse row = io.logNodes().readParity(p.getLogNode(),
          StripeCode.readParity(stripe, p.getRow()));
      if (row.getOutcome() != ReadParityResponse.Outcome.AT_VERSION) {
        found.add(name + ": log node " + p.getLogNode() + " holds parity row " + p.getRow()
            + " at " + row.getOutcome() + " (version " + row.getHeldVersion() + ")");
      } else if (!Arrays.equals(parity[p.getRow()], row.getParity().toByteArray())) {
        found.add(name + ": parity row " + p.getRow() + " on log node " + p.getLogNode()
            + " differs from a fresh encode");
      }
    }
    return found;
  }
}
