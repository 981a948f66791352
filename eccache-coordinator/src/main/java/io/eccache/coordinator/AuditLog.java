package io.eccache.coordinator;

import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import alluxio.master.audit.AsyncUserAccessAuditLogWriter;
import alluxio.master.audit.AuditContext;
import alluxio.security.authentication.ClientContextServerInjector;
import java.util.Locale;

/**
 * eccache's requests in Alluxio's audit log ({@code alluxio.master.audit.logging.enabled}): one
 * line per coordinator RPC, written by Alluxio's own asynchronous writer to the logger the master's
 * file operations use ({@code AUDIT_LOG}, master_audit.log), in the same format, naming the real
 * caller, the command ({@code eccache.get}, ...) and the Alluxio path that governs the key.
 */
final class AuditLog {
  /** The logger Alluxio's file system master writes its audit log to. */
  private static final String LOGGER = "AUDIT_LOG";

  private final AsyncUserAccessAuditLogWriter writer;

  private AuditLog(AsyncUserAccessAuditLogWriter writer) {
    this.writer = writer;
  }

  /** An audit log that writes when Alluxio's master audit logging is enabled. */
  static AuditLog fromConfiguration() {
    return new AuditLog(Configuration.getBoolean(PropertyKey.MASTER_AUDIT_LOGGING_ENABLED)
        ? new AsyncUserAccessAuditLogWriter(LOGGER) : null);
  }

  void start() {
    if (writer != null) {
      writer.start();
    }
  }

  void stop() {
    if (writer != null) {
      writer.stop();
    }
  }

  /** Whether lines are written (else {@link #entry} is not worth building). */
  boolean enabled() {
    return writer != null;
  }

  /**
   * Starts the line of one request by {@code caller}; the handler sets allowed and succeeded and
   * closes it, which queues it (dropped, as Alluxio drops its own, when the queue is full).
   */
  Entry entry(Caller caller, String command, String path) {
    return new Entry(caller, command, path);
  }

  /** One request's line. */
  final class Entry implements AuditContext {
    private final Caller caller;
    private final String command;
    private final String path;
    private final String ip = ClientContextServerInjector.getIpAddress();
    private final long startNs = System.nanoTime();
    private long endNs;
    private boolean allowed = true;
    private boolean succeeded;

    private Entry(Caller caller, String command, String path) {
      this.caller = caller;
      this.command = command;
      this.path = path;
    }

    @Override
    public Entry setAllowed(boolean allowed) {
      this.allowed = allowed;
      return this;
    }

    @Override
    public Entry setSucceeded(boolean succeeded) {
      this.succeeded = succeeded;
      return this;
    }

    @Override
    public void close() {
      endNs = System.nanoTime();
      if (writer != null) {
        writer.append(this);
      }
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "succeeded=%b\tallowed=%b\tugi=%s (AUTH=%s)\tip=%s\t"
              + "cmd=%s\tsrc=%s\tdst=null\tperm=null\texecutionTimeUs=%d", succeeded, allowed,
          caller, Configuration.getString(PropertyKey.SECURITY_AUTHENTICATION_TYPE), ip, command,
          path, (endNs - startNs) / 1000);
    }
  }
}
