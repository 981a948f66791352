package io.eccache.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * An object opened for reading ({@link EcCacheClient#openStream(String)}): read forward as a stream,
 * moved with {@link #seek(long)}, or read at any position without moving
 * ({@link #read(long, byte[], int, int)}). A read fetches only the stripes it needs, each with its
 * own late-binding round (k + Δ splits in parallel, the first k that arrive intact win), so a small
 * range of a large object costs about one stripe, not the object. The calls follow Hadoop's
 * {@code Seekable} and {@code PositionedReadable} contracts: positions past the end fail with
 * {@link EOFException}. Thread-safe: calls are serialized. Close it.
 */
public abstract class SeekableObjectStream extends InputStream {
  SeekableObjectStream() {}

  /** The object's size in bytes. */
  public abstract long size();

  /** The position the next {@link #read()} reads from. */
  public abstract long getPos() throws IOException;

  /**
   * Moves to {@code position}, 0 to {@link #size()} (the end: the next read returns -1). Cheap:
   * nothing is read until the next read.
   *
   * @throws EOFException if {@code position} is negative or past the end
   */
  public abstract void seek(long position) throws IOException;

  /**
   * Reads up to {@code length} bytes at {@code position} into {@code buffer}, leaving
   * {@link #getPos()} where it was; returns the count, or -1 at or past the end.
   *
   * @throws EOFException if {@code position} is negative
   */
  public abstract int read(long position, byte[] buffer, int offset, int length)
      throws IOException;

  /**
   * Reads exactly {@code length} bytes at {@code position}, leaving {@link #getPos()} where it was.
   *
   * @throws EOFException if the range is not inside the object (nothing is read then)
   */
  public abstract void readFully(long position, byte[] buffer, int offset, int length)
      throws IOException;
}
