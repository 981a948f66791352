package io.eccache.cli;

/** A command that talks to a cluster: failures name the master it used ({@link ExitCodes}). */
interface ClusterCommand {
  /** This command's cluster options. */
  ClusterOptions cluster();
}
