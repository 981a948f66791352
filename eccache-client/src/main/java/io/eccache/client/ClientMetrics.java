package io.eccache.client;

import alluxio.metrics.MetricsSystem;
import com.codahale.metrics.Counter;
import com.codahale.metrics.Timer;
import io.eccache.common.EcCacheMetrics;

/**
 * This process's eccache client metrics in Alluxio's metrics system (names and meaning in
 * {@link EcCacheMetrics}): process-wide, summed over clients, and exported by Alluxio's sinks.
 * {@link ReadStatistics} is the per-client view of some of the same events.
 */
final class ClientMetrics {
  static final Timer GET_LATENCY = MetricsSystem.timer(EcCacheMetrics.GET_LATENCY);
  static final Timer PUT_LATENCY = MetricsSystem.timer(EcCacheMetrics.PUT_LATENCY);
  static final Counter SPLITS_READ = MetricsSystem.counter(EcCacheMetrics.SPLITS_READ);
  static final Counter READS_STOPPED_EARLY =
      MetricsSystem.counter(EcCacheMetrics.READS_STOPPED_EARLY);
  static final Counter READS_DISCARDED = MetricsSystem.counter(EcCacheMetrics.READS_DISCARDED);
  static final Counter READS_FAILED = MetricsSystem.counter(EcCacheMetrics.READS_FAILED);
  static final Counter READS_STALLED = MetricsSystem.counter(EcCacheMetrics.READS_STALLED);
  static final Counter BYTES_READ = MetricsSystem.counter(EcCacheMetrics.BYTES_READ);
  static final Counter BYTES_WRITTEN = MetricsSystem.counter(EcCacheMetrics.BYTES_WRITTEN);
  static final Counter SPLITS_REPLACED = MetricsSystem.counter(EcCacheMetrics.SPLITS_REPLACED);
  static final Timer DECODE_TIME = MetricsSystem.timer(EcCacheMetrics.DECODE_TIME);
  static final Timer ENCODE_TIME = MetricsSystem.timer(EcCacheMetrics.ENCODE_TIME);
  static final Counter UNDER_STORE_FALLBACKS =
      MetricsSystem.counter(EcCacheMetrics.UNDER_STORE_FALLBACKS);
  static final Counter MAINTENANCE_TASKS = MetricsSystem.counter(EcCacheMetrics.MAINTENANCE_TASKS);
  static final Counter UPDATES_IN_PLACE = MetricsSystem.counter(EcCacheMetrics.UPDATES_IN_PLACE);

  private ClientMetrics() {}
}
