package io.eccache.client;

import alluxio.conf.Configuration;
import io.eccache.client.form.ForwardingFormIo;
import io.eccache.client.form.FormIo;
import io.eccache.client.form.packed.PackedClientForm;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import java.util.Base64;

/**
 * A client JVM for {@code CrashPackedValuesTest}: updates a packed value in place and stops right after
 * its deltas reached the log nodes, before its commit (it prints {@value #MARK} and waits), so the
 * test can SIGKILL it there. Arguments: the key and the new value in Base64.
 */
public final class PackedUpdateKiller {
  /** Printed once the deltas are sent and the commit is next. */
  public static final String MARK = "DELTAS SENT, COMMIT NEXT";

  private PackedUpdateKiller() {}

  public static void main(String[] args) throws Exception {
    String key = args[0];
    byte[] value = Base64.getDecoder().decode(args[1]);
    try (EcCacheClient cache = EcCacheClient.create(Configuration.global())) {
      ClientContext context = cache.context();
      AllocateResponse allocation = context.coordinator().allocate(AllocateRequest.newBuilder()
          .setKey(key).setObjectSize(value.length).setInPlace(true).build());
      if (!allocation.hasUpdate()) {
        System.out.println("NO UPDATE: " + allocation);
        System.exit(3);
      }
      FormIo stopsBeforeCommit = new ForwardingFormIo(context.formIo()) {
        @Override
        public CoordinatorClient coordinator() {
          // The updater asks for the coordinator only to commit (or abort): stop here.
          System.out.println(MARK);
          System.out.flush();
          while (true) {
            try {
              Thread.sleep(60_000);
            } catch (InterruptedException e) {
              // killed from outside, never resumed
            }
          }
        }
      };
      new PackedClientForm().valueUpdater().orElseThrow().update(key, value, new byte[0],
          allocation, stopsBeforeCommit, new io.eccache.client.form.UpdatePhases().start());
    }
  }
}
