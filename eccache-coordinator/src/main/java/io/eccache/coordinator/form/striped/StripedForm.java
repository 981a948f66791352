package io.eccache.coordinator.form.striped;

import alluxio.exception.AlluxioException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerInfo;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.SplitFiles;
import io.eccache.coordinator.form.StorageForm;
import io.eccache.coordinator.form.WritePlan;
import io.eccache.policy.SplitPlacement;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Striped objects (EC-Cache's erasure-coded splits, SP-Cache's partitions, whole copies): every
 * split a file of its write's directory, on a distinct live worker chosen uniformly at random, the
 * scheme chosen from the key's namespace, its size and popularity. The form every key takes that
 * no other form takes.
 */
public final class StripedForm implements StorageForm {
  private final SchemeChooser chooser;
  private final NamespacePort ns;
  private final Random random;

  public StripedForm(SchemeChooser chooser, NamespacePort ns, Random random) {
    this.chooser = chooser;
    this.ns = ns;
    this.random = random;
  }

  /** How schemes are chosen (re-tuning keeps each object's base redundancy). */
  public SchemeChooser chooser() {
    return chooser;
  }

  @Override
  public String name() {
    return "striped";
  }

  @Override
  public boolean takes(String key) {
    return true;
  }

  @Override
  public boolean holds(Layout layout) {
    return layout.getSplitPathsCount() == 0;
  }

  @Override
  public WritePlan plan(String key, long size, Optional<RedundancyScheme> asked, boolean tuned,
      List<WorkerInfo> live) throws FailedPreconditionException {
    SchemeChooser.Choice choice = chooser.choose(key, size, asked, tuned);
    RedundancyScheme scheme = choice.scheme;
    int excess = scheme.splits() - live.size();
    if (choice.tuned && excess > 0 && scheme.redundancy() - excess >= 1) {
      // A tuned scheme is the coordinator's own choice (a lost object stored again as it was):
      // with workers gone it keeps what fits rather than failing; retuning restores the rest.
      scheme = scheme.withRedundancy(scheme.redundancy() - excess);
    }
    int n = scheme.splits();
    if (n > live.size()) {
      throw new FailedPreconditionException(scheme.describe() + " has " + n + " splits, which need"
          + " as many distinct workers, but only " + live.size() + " are live: choose a scheme"
          + " with fewer splits, or add workers");
    }
    return WritePlan.inWriteDirectory(scheme, choice.tuned,
        SplitPlacement.chooseDistinct(live, n, random));
  }

  /**
   * One listing of the write's directory: what a lookup costs the master beyond reading the
   * layout.
   */
  @Override
  public LookupResponse.Builder describe(Layout layout, Set<HostPort> live)
      throws IOException, AlluxioException {
    List<FileInfo> listed = ns.list(layout.getDirectory(), NamespacePort.Load.NEVER);
    Map<String, FileInfo> files = new HashMap<>(listed.size() * 2);
    for (FileInfo f : listed) {
      files.put(f.getName(), f);
    }
    LookupResponse.Builder response = LookupResponse.newBuilder().setLayout(layout);
    RedundancyScheme scheme = SchemeProtos.of(layout);
    for (int i = 0; i < scheme.splits(); i++) {
      String name = scheme.splitName(i); // made once per name, not per lookup
      Split.Builder split = Split.newBuilder().setIndex(i);
      FileInfo info = files.get(name);
      if (info != null) {
        SplitFiles.describe(split, info, live);
      } else {
        split.setPath(layout.getDirectory() + "/" + name);
      }
      response.addSplits(split);
    }
    return response;
  }
}
