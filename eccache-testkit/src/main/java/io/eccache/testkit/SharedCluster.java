package io.eccache.testkit;

import io.eccache.common.MasterKeys;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JUnit 5 extension that gives test classes an {@link EmbeddedCluster} shared with every other
 * class of the same spec (the same {@link EmbeddedCluster.Builder} options: {@link
 * EmbeddedCluster.Builder#spec()}) in the same JVM:
 *
 * <pre>{@code
 * class MyTest {
 *   @RegisterExtension
 *   static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(5)
 *       .workerMemoryBytes(128L << 20).property(MasterKeys.DEFAULT_K, 3));
 *
 *   @Test
 *   void roundTrips() throws Exception {
 *     EmbeddedCluster cluster = CLUSTER.cluster();   // or a test method parameter
 *     String key = CLUSTER.key("obj");              // "MyTest/roundTrips-7/obj": this test's own
 *     cluster.stopWorker(1);                         // restarted after the test, pass or fail
 *   }
 * }
 * }</pre>
 *
 * <p><b>Sharing.</b> A cluster is started when a test, a {@code @BeforeEach} or a {@code @BeforeAll}
 * method first asks for it ({@link #cluster()} or a parameter), so a class whose {@code @BeforeAll}
 * aborts on an assumption, or a test that needs no cluster, never starts one. Later classes with an
 * equal spec reuse it; a class with another spec closes it and starts its own (Alluxio's
 * {@code Configuration} is global: one in-process cluster per JVM); the last one is closed at the
 * end of the run, from the root {@code ExtensionContext.Store}. The surefire settings here
 * (forkCount 1, reuseForks true: its defaults, not overridden in any pom) run all of a module's
 * classes in one JVM and one JUnit Platform run, so classes of one module share a cluster and
 * modules never do. Declare a module's common spec once in a helper (eccache-client's
 * {@code ClientTestCluster}) so the classes that can share do, and keep classes of one spec next to
 * each other in the class order (eccache-client runs classes by name, set in its
 * {@code junit-platform.properties}): every switch of spec costs a cluster start.
 *
 * <p><b>Isolation.</b> Tests must make their own objects ({@link #key(String)} is a prefix unique
 * to the test) and never depend on another test's. After each test every stopped worker is started
 * again and a stopped S3 server restarted, and the extension waits until the master counts every
 * worker live; if that fails the cluster is closed and the next test gets a fresh one. Master-side
 * state a test leaves (popularity, retired versions) is shared, as objects of other tests are:
 * a test that needs a pristine cluster calls {@link #discard()} first.
 *
 * <p>{@link #none()} closes any shared cluster before a class that runs its own servers (a
 * {@link io.eccache.localcluster.ProcessCluster}), so its client configuration does not see the
 * shared one's properties.
 */
public final class SharedCluster
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {
  private static final Logger LOG = LoggerFactory.getLogger(SharedCluster.class);
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedCluster.class);
  private static final AtomicInteger TESTS = new AtomicInteger();

  private final Spec spec;
  private volatile Holder holder;
  private volatile String prefix;

  private SharedCluster(Spec spec) {
    this.spec = spec;
  }

  /** The cluster {@code options} describe, shared with every class that asks for an equal one. */
  public static SharedCluster of(EmbeddedCluster.Builder options) {
    return new SharedCluster(new Spec(options));
  }

  /** An extension that only closes the shared cluster before its class runs. */
  public static SharedCluster none() {
    return new SharedCluster(null);
  }

  /** The cluster a class asks for: its options, and their description to compare by. */
  private static final class Spec {
    final EmbeddedCluster.Builder options;
    final String description;

    Spec(EmbeddedCluster.Builder options) {
      this.options = options;
      this.description = options.spec();
    }

    EmbeddedCluster start() throws IOException {
      return options.start();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Spec && ((Spec) o).description.equals(description);
    }

    @Override
    public int hashCode() {
      return description.hashCode();
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /** The JVM's one shared cluster, closed with the root store at the end of the run. */
  private static final class Holder implements ExtensionContext.Store.CloseableResource {
    private Spec spec;
    private EmbeddedCluster cluster;

    synchronized EmbeddedCluster acquire(Spec wanted) throws IOException {
      if (cluster != null && spec.equals(wanted)) {
        return cluster;
      }
      close();
      LOG.info("SharedCluster: starting {}", wanted);
      cluster = wanted.start();
      spec = wanted;
      return cluster;
    }

    synchronized EmbeddedCluster current(Spec wanted) {
      return cluster != null && spec.equals(wanted) ? cluster : null;
    }

    @Override
    public synchronized void close() {
      if (cluster != null) {
        LOG.info("SharedCluster: closing {}", spec);
        EmbeddedCluster c = cluster;
        cluster = null;
        spec = null;
        c.close();
      }
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    holder = context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent(Holder.class, k -> new Holder(), Holder.class);
    if (spec == null) {
      holder.close();
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    prefix = context.getRequiredTestClass().getSimpleName() + "/"
        + context.getRequiredTestMethod().getName() + "-" + TESTS.incrementAndGet() + "/";
  }

  @Override
  public void afterEach(ExtensionContext context) {
    prefix = null;
    if (spec == null) {
      return;
    }
    EmbeddedCluster c = holder.current(spec);
    if (c == null) {
      return;
    }
    try {
      if (!c.s3().isRunning()) {
        c.s3().restart();
      }
      for (int i = 0; i < c.workerCount(); i++) {
        if (!c.isWorkerRunning(i)) {
          c.startWorker(i);
        }
      }
      c.awaitLiveWorkers(c.workerCount());
    } catch (IOException | RuntimeException e) {
      LOG.warn("SharedCluster: could not restore the cluster after {}; closing it, the next test"
          + " starts another: {}", context.getDisplayName(), e.toString());
      holder.close();
    }
  }

  /** The shared cluster for this class's spec, started (or switched to) if need be. */
  public EmbeddedCluster cluster() throws IOException {
    if (spec == null) {
      throw new IllegalStateException("SharedCluster.none() has no cluster");
    }
    if (holder == null) {
      throw new IllegalStateException("SharedCluster not registered: use it in a static field"
          + " annotated @RegisterExtension, and call cluster() from a test or @BeforeAll method");
    }
    return holder.acquire(spec);
  }

  /** A prefix unique to the running test, {@code "Class/method-N/"}; use it for its keys. */
  public String prefix() {
    String p = prefix;
    if (p == null) {
      throw new IllegalStateException("no test is running");
    }
    return p;
  }

  /** {@code name} under the running test's own {@link #prefix()}. */
  public String key(String name) {
    return prefix() + name;
  }

  /** Closes the shared cluster now; whoever needs one next starts a fresh one. */
  public void discard() {
    if (holder != null) {
      holder.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return spec != null && parameter.getParameter().getType() == EmbeddedCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    try {
      return cluster();
    } catch (IOException e) {
      throw new org.junit.jupiter.api.extension.ParameterResolutionException(
          "could not start the shared cluster", e);
    }
  }
}
