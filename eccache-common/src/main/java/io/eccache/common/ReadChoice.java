package io.eccache.common;

/**
 * Which k + Δ splits a GET reads of an erasure-coded object (replicated objects read one copy at
 * random either way).
 */
public enum ReadChoice {
  /**
   * The paper's choice (section 4.3): k + Δ of the live splits uniformly at random. Load spreads
   * over every split's worker, but a GET that does not get all k data splits first decodes.
   */
  RANDOM,
  /**
   * The k data splits plus Δ parities chosen at random: a healthy GET copies the data straight into
   * place and decodes only when a data split is missing, slow or corrupt; the workers holding data
   * splits carry more of the load than those holding parities.
   */
  DATA_FIRST,
  /**
   * The k data splits alone; the Δ parities are asked for only when a data split is late (the
   * other k - 1 arrived and it has not within a quarter of the time they took) or fails. A healthy
   * GET reads exactly the object's bytes; a straggler costs that quarter plus a parity's read.
   */
  HEDGED,
  /**
   * {@link #RANDOM} while this machine's CPU has room, {@link #HEDGED} while it is busy (its load
   * at 90% or more, until it falls below 75%; sampled every 100 ms): the Δ extra reads race from
   * the start where the links are the limit, and are asked for only for a late data split where
   * every extra byte costs CPU the reads need.
   */
  ADAPTIVE
}
