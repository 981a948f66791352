package io.eccache.client;

import alluxio.conf.AlluxioConfiguration;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.NotFoundException;
import com.google.common.cache.Cache;
import com.google.common.base.Ticker;
import com.google.common.cache.CacheBuilder;
import io.eccache.common.ClientKeys;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.MasterKeys;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layouts a client looked up, reused for later GETs of the same key for at most
 * {@code alluxio.user.eccache.layout.cache.ttl}, so a repeated GET costs no coordinator lookup
 * (issue 15), and the reads it served so, reported to the coordinator in the background so
 * popularity-driven redundancy still counts them.
 *
 * <p>Why a stale layout never returns wrong bytes: a layout names one write (its write id, split
 * files, block ids and CRCs); a version replaced or deleted by another client keeps its split
 * blocks readable for {@code alluxio.master.eccache.retired.grace}, and the TTL must be shorter
 * ({@link #check}), so a GET from a cached layout reads the whole previous version, never a mix.
 * What this client changes itself it sees at once: every PUT it commits (user PUTs, re-caching,
 * maintenance rewrites), delete and evict {@link #invalidate invalidates} the key, and a lookup
 * that was under way meanwhile is not cached. A layout is dropped when a read of it fails
 * ({@link #readFailed}) and is cached only while every split is live, so a degraded object is
 * looked up on every GET.
 *
 * <p>Refresh ahead: a GET served from a layout older than half the TTL also starts one background
 * lookup of the key (not counted as a read: the GET was), whose answer replaces the entry and
 * starts its TTL anew. A key read at least once per half TTL is then never looked up on a GET's
 * own thread, and what a GET may see is unchanged: no entry is served longer than the TTL after
 * the lookup that made it was answered. A refresh that finds the key gone, or a split not live,
 * drops the entry, so the next GET looks it up itself; one that fails leaves the entry to expire.
 *
 * <p>Popularity: a GET from a cached layout adds one to the key's pending count; a background task
 * sends the counts every {@code alluxio.user.eccache.read.report.interval} in one
 * {@code ReportReads} RPC (at once, in the background, when more keys wait than the cache holds),
 * and {@link #close()} sends what is left, waiting at most {@value #CLOSE_REPORT_MS} ms. A failed
 * report is kept and sent with the next. Thread-safe.
 */
final class LayoutCache implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LayoutCache.class);
  /** The longest close() waits for the last report. */
  static final long CLOSE_REPORT_MS = 2000;
  /** Keys per ReportReads RPC (the coordinator takes up to 100,000). */
  private static final int REPORT_CHUNK = 10_000;
  private static final int STRIPES = 64;

  private final CoordinatorClient coordinator;
  /** The client's clock: an entry's age and expiry. */
  private final Ticker ticker;
  /** Null when the cache is off. */
  private final Cache<String, Entry> layouts;
  private final int maxEntries;
  /** A hit on an entry at least this old starts a refresh (half the TTL). */
  private final long refreshAfterNanos;
  /** Background lookups that refreshed an entry (tests, stats). */
  private final AtomicLong refreshes = new AtomicLong();
  /**
   * Per key stripe, bumped by every invalidation: a lookup that saw another value when it began
   * may hold a layout from before the change and is not kept.
   */
  private final AtomicLongArray epochs = new AtomicLongArray(STRIPES);
  /** Reads served from cached layouts, per key, not yet reported. */
  private final ConcurrentHashMap<String, Long> pending = new ConcurrentHashMap<>();
  private final AtomicBoolean reportQueued = new AtomicBoolean();
  private final Object reporting = new Object();
  /** Sends the read reports and makes the refreshes' lookups; null when the cache is off. */
  private final ScheduledExecutorService reporter;

  /** A cached lookup, when it was cached, and whether a refresh of it is under way. */
  private static final class Entry {
    final LookupResponse lookup;
    final long cachedAt;
    final AtomicBoolean refreshing = new AtomicBoolean();

    Entry(LookupResponse lookup, long cachedAt) {
      this.lookup = lookup;
      this.cachedAt = cachedAt;
    }
  }

  /** A layout for a read and whether it came from the cache. */
  static final class Found {
    final LookupResponse lookup;
    final boolean cached;

    Found(LookupResponse lookup, boolean cached) {
      this.lookup = lookup;
      this.cached = cached;
    }
  }

  private LayoutCache(CoordinatorClient coordinator, long ttlMs, int maxEntries,
      long reportIntervalMs, Ticker ticker) {
    this.coordinator = coordinator;
    this.ticker = ticker;
    this.maxEntries = maxEntries;
    this.refreshAfterNanos = TimeUnit.MILLISECONDS.toNanos(ttlMs) / 2;
    if (ttlMs == 0 || maxEntries == 0) {
      this.layouts = null;
      this.reporter = null;
      return;
    }
    this.layouts = CacheBuilder.newBuilder().maximumSize(maxEntries).ticker(ticker)
        .expireAfterWrite(ttlMs, TimeUnit.MILLISECONDS).build();
    this.reporter = Executors.newSingleThreadScheduledExecutor(
        ClientContext.daemonThreads("eccache-read-report-"));
    reporter.scheduleWithFixedDelay(this::reportQuietly, reportIntervalMs, reportIntervalMs,
        TimeUnit.MILLISECONDS);
  }

  /** The cache {@code conf} asks for (checked with {@link #check}). */
  static LayoutCache create(CoordinatorClient coordinator, AlluxioConfiguration conf,
      Ticker ticker) {
    check(conf);
    return new LayoutCache(coordinator, conf.getMs(ClientKeys.LAYOUT_CACHE_TTL),
        conf.getInt(ClientKeys.LAYOUT_CACHE_MAX_ENTRIES),
        conf.getMs(ClientKeys.READ_REPORT_INTERVAL), ticker);
  }

  /**
   * Checks the cache's settings: TTL and entries not negative, a report interval above 0, and the
   * TTL shorter than the grace a replaced version stays readable for (else a cached layout could
   * outlive the splits it names).
   *
   * @throws IllegalArgumentException naming the key to change
   */
  static void check(AlluxioConfiguration conf) {
    long ttlMs = conf.getMs(ClientKeys.LAYOUT_CACHE_TTL);
    long graceMs = conf.getMs(MasterKeys.RETIRED_GRACE);
    if (ttlMs < 0 || ttlMs >= graceMs) {
      throw new IllegalArgumentException(ClientKeys.LAYOUT_CACHE_TTL.getName() + " must be at"
          + " least 0 and shorter than " + MasterKeys.RETIRED_GRACE.getName() + " (" + graceMs
          + " ms), which keeps replaced versions readable, got " + ttlMs + " ms: lower it (0"
          + " turns the layout cache off)");
    }
    int entries = conf.getInt(ClientKeys.LAYOUT_CACHE_MAX_ENTRIES);
    if (entries < 0) {
      throw new IllegalArgumentException(ClientKeys.LAYOUT_CACHE_MAX_ENTRIES.getName()
          + " must be at least 0 (0 turns the layout cache off), got " + entries);
    }
    long intervalMs = conf.getMs(ClientKeys.READ_REPORT_INTERVAL);
    if (intervalMs <= 0) {
      throw new IllegalArgumentException(ClientKeys.READ_REPORT_INTERVAL.getName()
          + " must be above 0, got " + intervalMs + " ms");
    }
  }

  /**
   * The layout of {@code key} for a GET: the cached one (the read counted for the next report),
   * else looked up from the coordinator (which counts it) and cached when every split is live.
   *
   * @throws alluxio.exception.status.NotFoundException if the key has no committed layout
   */
  Found forRead(String key) throws AlluxioStatusException {
    if (layouts == null) {
      return new Found(coordinator.lookup(key), false);
    }
    Entry hit = layouts.getIfPresent(key);
    if (hit != null) {
      countRead(key);
      if (ticker.read() - hit.cachedAt >= refreshAfterNanos
          && hit.refreshing.compareAndSet(false, true)) {
        refreshLater(key, hit);
      }
      return new Found(hit.lookup, true);
    }
    int stripe = stripe(key);
    long epoch = epochs.get(stripe);
    long asked = ticker.read(); // an entry ages from before its lookup: never past the TTL
    LookupResponse fresh = coordinator.lookup(key);
    if (allLive(fresh)) {
      // Kept only if no invalidation ran since the lookup began. Atomic with the invalidation's
      // remove (which follows its epoch bump), so no GET that begins after this client's PUT,
      // delete or evict returned can find a layout from before it.
      layouts.asMap().compute(key,
          (k, current) -> epochs.get(stripe) == epoch ? new Entry(fresh, asked) : current);
    }
    return new Found(fresh, false);
  }

  /** Looks {@code key} up again in the background and replaces {@code stale} with the answer. */
  private void refreshLater(String key, Entry stale) {
    try {
      reporter.execute(() -> refresh(key, stale));
    } catch (RejectedExecutionException closing) {
      // closed: the entry expires as it would have
    }
  }

  private void refresh(String key, Entry stale) {
    int stripe = stripe(key);
    long epoch = epochs.get(stripe);
    long asked = ticker.read();
    LookupResponse fresh;
    try {
      fresh = coordinator.lookup(key, true); // the GET that asked for it counted the read
    } catch (NotFoundException gone) {
      layouts.asMap().remove(key, stale); // the next GET finds out for itself
      return;
    } catch (AlluxioStatusException | RuntimeException e) {
      LOG.debug("eccache: refreshing the layout of {} failed; it expires as before: {}", key,
          e.toString());
      return;
    }
    boolean live = allLive(fresh);
    // The same write with its splits where they were keeps the cached lookup's objects, so the
    // split statuses converted from them (AlluxioSplitSource) are not converted again.
    LookupResponse kept = fresh.getLayout().equals(stale.lookup.getLayout())
        && fresh.getSplitsList().equals(stale.lookup.getSplitsList()) ? stale.lookup : fresh;
    // Replaces only the entry it refreshed, and only if no invalidation ran meanwhile: a newer
    // entry, or none (this client changed the key), stays as it is.
    layouts.asMap().computeIfPresent(key, (k, current) -> current != stale
        || epochs.get(stripe) != epoch ? current : live ? new Entry(kept, asked) : null);
    refreshes.incrementAndGet();
  }

  /** Background lookups that refreshed a cached layout so far. */
  long refreshes() {
    return refreshes.get();
  }

  /**
   * Forgets {@code key}'s layout: this client changed the key (PUT, delete, evict). A null key (a
   * call refused for bad input) is ignored.
   */
  void invalidate(String key) {
    if (layouts == null || key == null) {
      return;
    }
    epochs.incrementAndGet(stripe(key));
    layouts.invalidate(key);
  }

  /**
   * Forgets {@code key} for good: this client deleted or evicted it, which also clears its
   * popularity at the coordinator, so the reads not yet reported are dropped too (a report after
   * the delete would count them again).
   */
  void forget(String key) {
    invalidate(key);
    if (key != null) {
      pending.remove(key);
    }
  }

  /** A read of {@code used} failed: drop it (unless a newer layout replaced it already). */
  void readFailed(LookupResponse used) {
    if (layouts != null) {
      layouts.asMap().computeIfPresent(used.getLayout().getKey(),
          (k, current) -> current.lookup == used ? null : current);
    }
  }

  /** Test hook: caches {@code lookup} as if a GET had just looked it up (no checks). */
  void putForTest(LookupResponse lookup) {
    layouts.put(lookup.getLayout().getKey(), new Entry(lookup, ticker.read()));
  }

  /** Whether {@code key}'s layout is cached now (tests). */
  boolean holds(String key) {
    return layouts != null && layouts.getIfPresent(key) != null;
  }

  private static boolean allLive(LookupResponse lookup) {
    for (Split s : lookup.getSplitsList()) {
      if (!s.getLive() || !s.hasStatus()) {
        return false;
      }
    }
    return lookup.getSplitsCount() > 0;
  }

  private static int stripe(String key) {
    return (key.hashCode() & Integer.MAX_VALUE) % STRIPES;
  }

  private void countRead(String key) {
    pending.merge(key, 1L, Long::sum);
    if (pending.size() > maxEntries && reportQueued.compareAndSet(false, true)) {
      try {
        reporter.execute(() -> {
          reportQueued.set(false);
          reportQuietly();
        });
      } catch (RejectedExecutionException closing) {
        reportQueued.set(false); // close() sends what is left
      }
    }
  }

  private void reportQuietly() {
    try {
      report();
    } catch (AlluxioStatusException | RuntimeException e) {
      LOG.warn("eccache: could not report reads served from cached layouts (kept for the next"
          + " report): {}", e.toString());
    }
  }

  /**
   * Sends the reads counted so far now, in this thread, and returns once the coordinator has
   * counted them: what the background task does every interval. Test hook too: a test that ticks
   * the coordinator's clock and runs a re-tuning pass calls it first (through
   * {@link EcCacheClient}), so the pass sees every read made before.
   *
   * @throws AlluxioStatusException if the coordinator could not be reached; the counts are kept
   */
  void report() throws AlluxioStatusException {
    synchronized (reporting) {
      Map<String, Long> batch = new HashMap<>();
      for (String key : pending.keySet()) {
        Long n = pending.remove(key); // a read counted meanwhile starts a new entry: not lost
        if (n != null) {
          batch.put(key, n);
        }
        if (batch.size() == REPORT_CHUNK) {
          send(batch);
          batch = new HashMap<>();
        }
      }
      if (!batch.isEmpty()) {
        send(batch);
      }
    }
  }

  private void send(Map<String, Long> batch) throws AlluxioStatusException {
    try {
      coordinator.reportReads(batch);
    } catch (AlluxioStatusException | RuntimeException e) {
      batch.forEach((key, n) -> pending.merge(key, n, Long::sum));
      throw e;
    }
  }

  /** Stops the reporter after sending what is left, waiting at most {@value #CLOSE_REPORT_MS} ms. */
  @Override
  public void close() {
    if (reporter == null) {
      return;
    }
    try {
      Future<?> last = reporter.submit(this::reportQuietly); // after a report under way, if any
      reporter.shutdown(); // the periodic report stops; the last one still runs
      last.get(CLOSE_REPORT_MS, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException | ExecutionException alreadyClosed) {
      // nothing more to send from here
    } catch (TimeoutException e) {
      LOG.warn("eccache: the last read report did not finish within {} ms; counts of {} keys"
          + " not sent", CLOSE_REPORT_MS, pending.size());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    reporter.shutdownNow();
    layouts.invalidateAll();
  }
}
