package io.eccache.common;

import alluxio.conf.PropertyKey;
import alluxio.grpc.Scope;
import java.util.List;

/**
 * Keys read by clients ({@code EcCacheClient}) and the maintainers that run in client processes:
 * {@code alluxio.user.eccache.*}, {@link Scope#CLIENT}.
 */
public final class ClientKeys {
  /** The longest wait for one split read or one step of the split writes. */
  public static final PropertyKey IO_TIMEOUT = KeyRegistry.register(
      PropertyKey.Builder.durationBuilder("alluxio.user.eccache.io.timeout")
          .setDefaultValue("30s")
          .setScope(Scope.CLIENT)
          .setDescription("The longest a client waits for one split read, or one step of the"
              + " split writes (open, a stripe, close): a GET then tries another split or fails"
              + " with DeadlineExceededException; a PUT counts the split as failed (rewritten"
              + " elsewhere if the scheme allows, else DeadlineExceededException). Also how long"
              + " one read of an object's under-store copy is tried again while that copy is"
              + " still the version read (then UnavailableException; a copy deleted or replaced"
              + " meanwhile fails with AbortedException at once).")
          .setIsBuiltIn(false).buildUnregistered(), "alluxio.eccache.user.io.timeout");

  /** Direct memory a client keeps for reuse. */
  public static final PropertyKey BUFFER_POOL_SIZE = KeyRegistry.register(
      PropertyKey.Builder.dataSizeBuilder("alluxio.user.eccache.buffer.pool.size")
          .setDefaultValue("256MB")
          .setScope(Scope.CLIENT)
          .setDescription("Direct memory a client keeps for reuse by PUTs and GETs (cells, split"
              + " ranges, decode outputs); buffers returned beyond it are freed.")
          .setIsBuiltIn(false).buildUnregistered(), "alluxio.eccache.user.buffer.pool.size");

  /** Threads a client reads and writes splits with. */
  public static final PropertyKey IO_THREADS = KeyRegistry.register(
      PropertyKey.Builder.intBuilder("alluxio.user.eccache.io.threads")
          .setDefaultValue(32)
          .setScope(Scope.CLIENT)
          .setDescription("Threads one client reads and writes splits with: each split read or"
              + " write of a GET or PUT takes one. Below concurrent GETs x (k + delta), reads"
              + " wait for a thread and late binding races fewer splits than it asked for.")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** Which k + Δ splits a GET reads. */
  public static final PropertyKey READ_CHOICE = KeyRegistry.register(
      PropertyKey.Builder.enumBuilder("alluxio.user.eccache.read.choice", ReadChoice.class)
          .setDefaultValue(ReadChoice.ADAPTIVE)
          .setScope(Scope.CLIENT)
          .setDescription("Which k + delta splits of an erasure-coded object a GET reads: RANDOM,"
              + " any k + delta of the live splits uniformly at random (the paper's choice: the"
              + " load spreads over every split's worker, and a GET that misses a data split"
              + " decodes), or DATA_FIRST, the k data splits plus delta random parities (a"
              + " healthy GET copies the data into place and never decodes; the data splits'"
              + " workers carry more of the load), or HEDGED, the k data splits and the delta"
              + " parities only once a data split is late (the other k - 1 arrived and it has not"
              + " within a quarter of their time) or failed, or ADAPTIVE, RANDOM while this"
              + " machine's CPU has room and HEDGED while its load is 90% or more (until it falls"
              + " below 75%).")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** How long a worker whose split read just failed is read only when no other split is left. */
  public static final PropertyKey WORKER_AVOID_TIME = KeyRegistry.register(
      PropertyKey.Builder.durationBuilder("alluxio.user.eccache.worker.avoid.time")
          .setDefaultValue("5s")
          .setScope(Scope.CLIENT)
          .setDescription("After a split read from a worker fails as only an unreachable or hung"
              + " worker's does (connection refused or reset, unavailable, no answer within the"
              + " I/O timeout, or nothing sent while the GET's other reads delivered), the"
              + " client's next GETs read that worker's splits last, only when too few others"
              + " are left, for this long (a circuit breaker per worker). A read from it that"
              + " succeeds clears it sooner. The master notices a dead worker only after"
              + " alluxio.master.worker.timeout, and cached layouts outlive that; 0 turns it off.")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** How much of an object a streaming GET reads per late-binding round. */
  public static final PropertyKey STREAM_WINDOW = KeyRegistry.register(
      PropertyKey.Builder.dataSizeBuilder("alluxio.user.eccache.stream.window")
          .setDefaultValue("64MB")
          .setScope(Scope.CLIENT)
          .setDescription("Object bytes a GET reads per late-binding round, in whole stripes (at"
              + " least one); a larger object is streamed window by window with the next window"
              + " read ahead, so memory stays bounded whatever its size.")
          .setIsBuiltIn(false).buildUnregistered(), "alluxio.eccache.user.stream.window");

  /** Bytes per second a maintainer may move for repair and re-tuning. */
  public static final PropertyKey MAINTENANCE_BANDWIDTH = KeyRegistry.register(
      PropertyKey.Builder.dataSizeBuilder("alluxio.user.eccache.maintenance.bandwidth")
          .setDefaultValue("100MB")
          .setScope(Scope.CLIENT)
          .setDescription("Per maintainer process (RedundancyMaintainer, eccache maintain):"
              + " bytes per second it reads and writes for repair and re-tuning.")
          .setIsBuiltIn(false).buildUnregistered(), "alluxio.eccache.maintenance.bandwidth");

  /** The longest a client waits for one answer of the coordinator. */
  public static final PropertyKey COORDINATOR_TIMEOUT = KeyRegistry.register(
      PropertyKey.Builder.durationBuilder("alluxio.user.eccache.coordinator.timeout")
          .setDefaultValue("2min")
          .setScope(Scope.CLIENT)
          .setDescription("The longest a client waits for the coordinator to answer one call"
              + " (Allocate, Commit, Lookup, Delete, ...) once the master has taken it: a master"
              + " that accepts calls and answers none (stuck or frozen) then fails the call with"
              + " DeadlineExceededException naming it, where it would wait forever. Reaching the"
              + " master is bounded by alluxio.user.rpc.retry.max.duration. A Commit past it may"
              + " still take effect: stat the key to see which version it holds.")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** How long the eccache command waits for the cluster before it gives up. */
  public static final PropertyKey CLI_TIMEOUT = KeyRegistry.register(
      PropertyKey.Builder.durationBuilder("alluxio.user.eccache.cli.timeout")
          .setDefaultValue("5s")
          .setScope(Scope.CLIENT)
          .setDescription("The eccache command's deadline for reaching the cluster: connecting"
              + " to the master and retrying its RPCs (it bounds Alluxio's"
              + " alluxio.user.rpc.retry.max.duration, alluxio.user.master.polling.timeout and"
              + " alluxio.network.connection.* for the command). A wrong or unreachable master"
              + " fails within it with one line naming the address; the command's --timeout"
              + " option overrides it. Programs using EcCacheClient keep Alluxio's own values.")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** How long a client reuses a key's looked-up layout before asking the coordinator again. */
  public static final PropertyKey LAYOUT_CACHE_TTL = KeyRegistry.register(
      PropertyKey.Builder.durationBuilder("alluxio.user.eccache.layout.cache.ttl")
          .setDefaultValue("3s")
          .setScope(Scope.CLIENT)
          .setDescription("How long a client serves GETs of a key from the layout it looked up"
              + " last, without asking the coordinator. After another client overwrites or"
              + " deletes the key, GETs here return the previous version (whole, never mixed) for"
              + " at most this long; this client's own PUTs, deletes and evicts are seen at once."
              + " A GET served from a layout older than half of this also refreshes it in the"
              + " background, so a key read that often is never looked up on a GET's own thread."
              + " Must be shorter than alluxio.master.eccache.retired.grace (as this client's"
              + " configuration holds it), which keeps a replaced version readable; 0 turns the"
              + " cache off (one lookup per GET).")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** How many keys' layouts a client keeps. */
  public static final PropertyKey LAYOUT_CACHE_MAX_ENTRIES = KeyRegistry.register(
      PropertyKey.Builder.intBuilder("alluxio.user.eccache.layout.cache.max.entries")
          .setDefaultValue(10000)
          .setScope(Scope.CLIENT)
          .setDescription("Keys whose layouts one client keeps (least recently used go first);"
              + " each holds a layout with one file status per split, a few KB. 0 turns the cache off.")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** How often a client reports the reads served from cached layouts. */
  public static final PropertyKey READ_REPORT_INTERVAL = KeyRegistry.register(
      PropertyKey.Builder.durationBuilder("alluxio.user.eccache.read.report.interval")
          .setDefaultValue("1s")
          .setScope(Scope.CLIENT)
          .setDescription("How often a client sends the coordinator the count of GETs per key it"
              + " served from cached layouts (one ReportReads RPC, none when there were none), so"
              + " popularity-driven redundancy still sees every read. Counts not yet sent are sent"
              + " when the client closes; a failed report is retried with the next one.")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** Whether a PUT computes the object's SHA-256. */
  public static final PropertyKey PUT_SHA256 = KeyRegistry.register(
      PropertyKey.Builder.booleanBuilder("alluxio.user.eccache.put.sha256")
          .setDefaultValue(false)
          .setScope(Scope.CLIENT)
          .setDescription("Whether a PUT computes the whole object's SHA-256, kept in its layout"
              + " and shown by stat as sha256sum prints it. It is one more pass over every byte"
              + " (in a profile of 64 MiB PUTs, half of the client's PUT CPU), so it is off for"
              + " API PUTs; the eccache CLI's put and alluxio fs ecPut turn it on, and"
              + " PutOptions.sha256 chooses per PUT.")
          .setIsBuiltIn(false).buildUnregistered(), null);

  /** Every client key, in documentation order. */
  public static final List<PropertyKey> ALL =
      List.of(IO_TIMEOUT, IO_THREADS, BUFFER_POOL_SIZE, READ_CHOICE, WORKER_AVOID_TIME,
          STREAM_WINDOW,
          LAYOUT_CACHE_TTL, LAYOUT_CACHE_MAX_ENTRIES, READ_REPORT_INTERVAL, PUT_SHA256,
          MAINTENANCE_BANDWIDTH, COORDINATOR_TIMEOUT, CLI_TIMEOUT);

  private ClientKeys() {}
}
