package io.eccache.client;

import alluxio.AlluxioURI;
import alluxio.client.file.FileOutStream;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.AbortedException;
import alluxio.exception.status.CancelledException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.WorkerNetAddress;
import com.google.protobuf.ByteString;
import io.eccache.client.form.ClientForms;
import io.eccache.client.form.UpdatePhases;
import io.eccache.client.form.ValueUpdater;
import io.eccache.common.ObjectKeys;
import io.eccache.common.PackedUnits;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PUT's protocol, for users' PUTs and eccache's own (re-caching, rewriting): states what it knows
 * to the coordinator ({@code Allocate}), writes the splits where the layout says with the
 * {@link StripedWriter} (and a THROUGH copy to a staging file in the under store), writes the splits
 * whose worker failed again on others ({@code PlaceSplit} and the {@link SplitRebuilder}), and
 * commits with a CRC32C per cell. Until the commit, readers see the previous version or nothing;
 * if it throws, the previous version stays, in the cache and in the under store.
 */
final class ObjectWriter {
  private static final Logger LOG = LoggerFactory.getLogger(ObjectWriter.class);

  private final ClientContext context;
  private final StripedWriter striped;
  private final SplitRebuilder rebuilder;
  private final UnderStore underStore;

  ObjectWriter(ClientContext context, SplitRebuilder rebuilder) {
    this.context = context;
    this.striped = new StripedWriter(context);
    this.rebuilder = rebuilder;
    this.underStore = new UnderStore(context);
  }

  /**
   * Writes and commits one PUT; returns its allocation (the layout and staging path it used).
   *
   * @param alreadyPersisted the under-store file that holds exactly these bytes (when caching
   *     again from it), so the layout says so without writing them again; else null
   * @param replaces for eccache's own re-caching and rewriting, the write id (or "" for none) the
   *     key must still hold at the commit, so a user's PUT or delete meanwhile wins; null for a
   *     user's PUT
   */
  AllocateResponse put(String key, ByteSource source, long length, PutOptions options,
      UnderStore.UnderStoreFile alreadyPersisted, String replaces) throws IOException {
    ObjectKeys.check(key);
    if (options == null) {
      throw new IllegalArgumentException("options must not be null");
    }
    if (options.writeMode() != WriteMode.CACHE_ONLY && alreadyPersisted == null) {
      underStore.paths().checkNameLength(key);
    }
    if (options.scheme().isEmpty() && length < 0) {
      // The coordinator decides how to store it, and a small object is stored differently: look
      // ahead far enough to tell it the size of a small one.
      long threshold = context.smallObjectThreshold();
      byte[] head = source.readUpTo(Math.toIntExact(threshold));
      if (head.length < threshold) {
        length = head.length;
      }
      source = ByteSource.concat(head, source);
    }
    // The whole object's SHA-256 when asked for, as the bytes pass (no second pass), for stat and
    // sha256sum; else a digest that does nothing.
    MessageDigest sha256 = options.sha256().orElse(context.sha256()) ? sha256() : NO_DIGEST;
    AllocateRequest.Builder request = AllocateRequest.newBuilder().setKey(key)
        .setObjectSize(length);
    options.scheme().ifPresent(s -> request.setScheme(SchemeProtos.toProto(s))
        .setTuned(options.tuned()));
    // A user's cache-only PUT of a small array may update the value where it is (a packed value).
    boolean inPlace = options.writeMode() == WriteMode.CACHE_ONLY && alreadyPersisted == null
        && replaces == null && options.scheme().isEmpty() && length > 0
        && length <= MAX_IN_PLACE;
    AllocateResponse allocation;
    if (inPlace) {
      // The caller's array as it is (the usual small PUT: no copy); a stream's bytes read whole.
      byte[] value = ByteSource.wholeArray(source);
      if (value == null) {
        value = source.readUpTo(Math.toIntExact(length));
        if (value.length != length || source.readUpTo(1).length != 0) {
          throw new InvalidArgumentException("PUT of '" + key + "' announced " + length
              + " bytes but its source held " + (value.length == length ? "more"
                  : value.length));
        }
        source = ByteSource.of(value);
      }
      allocation = updateInPlace(key, value, request, sha256 != NO_DIGEST);
      if (allocation.hasUpdate()) {
        context.layouts().invalidate(key); // this client's GETs see its own write at once
        return allocation;
      }
    } else {
      allocation = context.coordinator().allocate(request.build());
    }
    List<WorkerNetAddress> placed = new ArrayList<>();
    allocation.getSplitsList().forEach(s -> placed.add(s.getWorker()));
    context.awaitWorkersKnown(placed);
    // A regional object's splits are written through to its regions: no whole copy to stage.
    boolean through = options.writeMode() == WriteMode.THROUGH && alreadyPersisted == null
        && !allocation.getWriteThrough();
    // Staged under a name no key has; the commit publishes it, so a failed PUT leaves S3 as it was.
    FileOutStream persist = through
        ? underStore.openForWrite(key, allocation.getStagingPath()) : null;
    StripedWriter.Result written;
    try {
      written = striped.write(allocation, source, length, persist, sha256);
      if (!written.failed.isEmpty()) {
        rewriteFailedSplits(allocation, written);
      }
      if (persist != null) {
        try {
          persist.close(); // before the commit: once visible, the object is also in S3
        } catch (IOException | RuntimeException e) {
          throw new UnavailableException("writing '" + key + "' to the under store (S3) failed: "
              + e.getMessage() + "; check that S3 is reachable, or PUT with CACHE_ONLY", e);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not committed: readers keep seeing the previous version; the coordinator forgets the
      // allocation after alluxio.master.eccache.allocation.timeout.
      if (persist != null) {
        underStore.cancelQuietly(persist, allocation.getStagingPath());
      }
      throw e;
    }
    Layout layout = allocation.getLayout();
    CommitRequest.Builder commit = CommitRequest.newBuilder().setKey(key)
        .setWriteId(layout.getWriteId()).addAllCrc32C(written.crc32c)
        .setObjectSize(written.objectSize).setPersisted(through);
    if (sha256 != NO_DIGEST) {
      commit.setSha256(ByteString.copyFrom(sha256.digest()));
    }
    if (alreadyPersisted != null) {
      commit.setUfsPath(alreadyPersisted.path).setUfsFileId(alreadyPersisted.fileId);
    }
    if (replaces != null) {
      // Re-caching or rewriting: only while the key still holds what it did when that began.
      commit.setConditional(true).setExpectedWriteId(replaces);
    }
    context.coordinator().commit(commit.build());
    context.layouts().invalidate(key); // this client's GETs see its own write at once
    return allocation;
  }

  /** The largest PUT that may update a value in place: a packed namespace's largest unit. */
  private static final long MAX_IN_PLACE = PackedUnits.MAX_UNIT_SIZE;
  /** Tries of an update in place whose value another update holds, before a new write instead. */
  private static final int UPDATE_TRIES = 20;

  /**
   * Allocates a PUT that may be an update in place: when the coordinator answers with an update,
   * carries it out and returns that answer; else returns the new write to make. An update that
   * finds the value busy with another update (its stripe leased), or loses its lease, is tried
   * again a few times with a short backoff, then made a new write.
   */
  private AllocateResponse updateInPlace(String key, byte[] value,
      AllocateRequest.Builder request, boolean withSha256) throws IOException {
    byte[] digest = withSha256 ? sha256().digest(value) : new byte[0];
    for (int attempt = 1; ; attempt++) {
      boolean last = attempt >= UPDATE_TRIES;
      UpdatePhases.Clock clock = context.updatePhases().start();
      AllocateResponse allocation =
          context.coordinator().allocate(request.setInPlace(!last).build());
      clock.lap(UpdatePhases.Phase.LEASE);
      if (allocation.getRetryAfterMs() > 0) {
        context.updatePhases().countLeaseWait();
        backoff(key, Math.max(allocation.getRetryAfterMs(), 1L << attempt));
        continue; // another update of the value's stripe is under way
      }
      if (!allocation.hasUpdate()) {
        return allocation; // a new write
      }
      ValueUpdater updater = ClientForms.REGISTERED.updater(allocation).orElseThrow(
          () -> new IOException("the coordinator answered the PUT of '" + key + "' with an"
              + " update this client cannot make: upgrade it"));
      try {
        updater.update(key, value, digest, allocation, context.formIo(), clock);
        clock.commit();
        ClientMetrics.UPDATES_IN_PLACE.inc();
        return allocation;
      } catch (AbortedException lost) {
        if (last) {
          throw lost;
        }
        context.updatePhases().countLeaseWait();
        backoff(key, 1L << attempt); // its lease expired before the commit: once more
      } catch (IOException failed) {
        // A unit or log node of the stripe cannot be reached: the value is written anew (as a
        // new version, replicated until sealed), as a PUT's split would be placed elsewhere.
        LOG.debug("eccache: updating '{}' in place failed ({}); writing it anew", key,
            failed.toString());
        return context.coordinator().allocate(request.setInPlace(false).build());
      }
    }
  }

  private static void backoff(String key, long ms) throws IOException {
    try {
      Thread.sleep(Math.min(50, ms));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancelledException("interrupted while updating '" + key + "'");
    }
  }

  /** Takes the bytes and keeps nothing: a PUT not computing the SHA-256. */
  private static final MessageDigest NO_DIGEST = new MessageDigest("none") {
    @Override
    protected void engineUpdate(byte input) {}

    @Override
    protected void engineUpdate(byte[] input, int offset, int len) {}

    @Override
    protected void engineUpdate(java.nio.ByteBuffer input) {
      input.position(input.limit());
    }

    @Override
    protected byte[] engineDigest() {
      return new byte[0];
    }

    @Override
    protected void engineReset() {}
  };

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /**
   * Late binding for writes: the splits whose worker failed during the PUT are written again, each
   * on a live worker the coordinator picks among those holding none of this write's splits, rebuilt
   * from the splits that were written (read back and coded like a repair). Their checksums are the
   * ones computed while encoding: the rebuilt bytes are the same.
   */
  private void rewriteFailedSplits(AllocateResponse allocation, StripedWriter.Result written)
      throws IOException {
    Layout allocated = allocation.getLayout();
    StripeGeometry g = new StripeGeometry(written.objectSize,
        SchemeProtos.of(allocated).dataSplits(), allocated.getCellSize());
    Layout layout = allocated.toBuilder().setObjectSize(written.objectSize)
        .setSplitSize(g.splitSize()).clearCrc32C().addAllCrc32C(written.crc32c).build();
    LookupResponse.Builder survivors = LookupResponse.newBuilder().setLayout(layout);
    List<WorkerNetAddress> used = new ArrayList<>();
    for (Split split : allocation.getSplitsList()) {
      used.add(split.getWorker());
      Split.Builder s = split.toBuilder().setLive(false);
      if (!written.failed.contains(split.getIndex())) {
        try {
          s.setStatus(GrpcUtils.toProto(context.fs().getStatus(new AlluxioURI(split.getPath()))
              .getFileInfo())).setLive(true);
        } catch (AlluxioException e) {
          throw new IOException("re-reading split " + split.getPath() + " failed: "
              + e.getMessage(), e);
        }
      }
      survivors.addSplits(s);
    }
    List<WorkerNetAddress> targets = new ArrayList<>();
    for (int i = 0; i < written.failed.size(); i++) {
      WorkerNetAddress target =
          context.coordinator().placeSplit(allocated.getKey(), allocated.getWriteId(), used);
      used.add(target);
      targets.add(target);
    }
    LOG.info("eccache: PUT '{}': rewriting split(s) {} on other workers", allocated.getKey(),
        written.failed);
    rebuilder.write(survivors.build(), written.failed, targets, null, new long[1]);
    ClientMetrics.SPLITS_REPLACED.inc(written.failed.size());
  }

}
