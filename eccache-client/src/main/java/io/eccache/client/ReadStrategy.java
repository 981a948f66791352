package io.eccache.client;

import io.eccache.client.form.ClientForm;
import io.eccache.client.form.ClientForms;
import io.eccache.client.form.SplitOrder;
import io.eccache.common.ReadChoice;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * One way of choosing which of an object's splits a GET reads, and when: the order the splits are
 * asked for, how many at once, and whether the Δ extra reads wait for a late data split (hedged)
 * or a late data split is waited for once k arrived (data-first). Stateless; a {@link ReadPlan}
 * carries one GET's state. Chosen per object by {@link #of}.
 */
interface ReadStrategy {
  /** The splits that can be read, in the order they are asked for. */
  List<Split> order(LookupResponse lookup, int k, Random random);

  /** How many of k + Δ reads start at once. */
  default int upFront(int k, int delta) {
    return k + delta;
  }

  /** Whether the Δ extra reads start only once the last of the k is late (or one failed). */
  default boolean hedges() {
    return false;
  }

  /** Whether, once k arrived, a data split still on its way is given a grace before decoding. */
  default boolean waitsForData() {
    return false;
  }

  /** Whether each split is a whole copy of the object (every one is data position 0). */
  default boolean copies() {
    return false;
  }

  /**
   * The strategy for the object {@code lookup} describes, under the client's {@code choice};
   * {@code cpuBusy}: whether this machine's CPU is busy now, asked only by {@code ADAPTIVE}.
   */
  static ReadStrategy of(LookupResponse lookup, boolean replicated, ReadChoice choice,
      BooleanSupplier cpuBusy) {
    ReadStrategy strategy = replicated ? COPIES : byChoice(choice, cpuBusy);
    Optional<SplitOrder> formOrder = ClientForms.REGISTERED.of(lookup.getLayout())
        .flatMap(ClientForm::readOrder);
    return formOrder.isPresent() ? new Ordered(strategy, formOrder.get()) : strategy;
  }

  private static ReadStrategy byChoice(ReadChoice choice, BooleanSupplier cpuBusy) {
    switch (choice) {
      case DATA_FIRST:
        return DATA_FIRST;
      case HEDGED:
        return HEDGED;
      case ADAPTIVE:
        return cpuBusy.getAsBoolean() ? HEDGED : RANDOM;
      default:
        return RANDOM;
    }
  }

  /** The live splits of {@code lookup} (those a live worker holds, with a status). */
  static List<Split> live(LookupResponse lookup) {
    List<Split> live = new ArrayList<>();
    for (Split s : lookup.getSplitsList()) {
      if (s.getLive() && s.hasStatus()) {
        live.add(s);
      }
    }
    return live;
  }

  /** The data splits in random order, then the parities in random order. */
  static List<Split> dataThenParities(LookupResponse lookup, int k, Random random) {
    List<Split> data = new ArrayList<>();
    List<Split> parities = new ArrayList<>();
    for (Split s : live(lookup)) {
      (s.getIndex() < k ? data : parities).add(s);
    }
    Collections.shuffle(data, random);
    Collections.shuffle(parities, random);
    data.addAll(parities);
    return data;
  }

  /** The paper's (section 4.3): any k + Δ of the live splits, uniformly at random. */
  ReadStrategy RANDOM = (lookup, k, random) -> {
    List<Split> all = live(lookup);
    Collections.shuffle(all, random);
    return all;
  };

  /** The k data splits and Δ random parities at once; a late data split gets a grace. */
  ReadStrategy DATA_FIRST = new ReadStrategy() {
    @Override
    public List<Split> order(LookupResponse lookup, int k, Random random) {
      return dataThenParities(lookup, k, random);
    }

    @Override
    public boolean waitsForData() {
      return true;
    }
  };

  /** The k data splits; the Δ parities only once one of them is late or failed. */
  ReadStrategy HEDGED = new ReadStrategy() {
    @Override
    public List<Split> order(LookupResponse lookup, int k, Random random) {
      return dataThenParities(lookup, k, random);
    }

    @Override
    public int upFront(int k, int delta) {
      return k;
    }

    @Override
    public boolean hedges() {
      return true;
    }
  };

  /** A replicated object: one copy at random (k = 1), another in place of one that fails. */
  ReadStrategy COPIES = new ReadStrategy() {
    @Override
    public List<Split> order(LookupResponse lookup, int k, Random random) {
      return RANDOM.order(lookup, k, random);
    }

    @Override
    public boolean copies() {
      return true;
    }
  };

  /**
   * {@code inner} with the splits asked for in a storage form's order (a regional object's: the
   * cached splits first, then the nearest regions); how many at once and when stay {@code inner}'s.
   */
  final class Ordered implements ReadStrategy {
    private final ReadStrategy inner;
    private final SplitOrder order;

    Ordered(ReadStrategy inner, SplitOrder order) {
      this.inner = inner;
      this.order = order;
    }

    @Override
    public List<Split> order(LookupResponse lookup, int k, Random random) {
      return order.order(lookup, k, random);
    }

    @Override
    public int upFront(int k, int delta) {
      return inner.upFront(k, delta);
    }

    @Override
    public boolean hedges() {
      return inner.hedges();
    }

    @Override
    public boolean waitsForData() {
      return inner.waitsForData();
    }

    @Override
    public boolean copies() {
      return inner.copies();
    }
  }
}
