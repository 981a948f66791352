package io.eccache.isal;

/**
 * Which generator matrix a coder uses. Both are systematic (the first k rows are the identity) and
 * MDS (any k of the k + r units decode), and in both a parity row depends only on its index and k, not
 * on r. They produce different parity bytes: an object must be decoded, and its parities updated, with
 * the matrix it was encoded with.
 */
public enum CodeMatrix {
  /**
   * Parity row i (unit k + i) has entries {@code 1 / ((k + i) XOR j)} for data unit j: ISA-L's
   * {@code gf_gen_cauchy1_matrix}, identical to Hadoop's {@code RSRawEncoder}. The default, and the
   * matrix of every object stored before the choice existed: it must never change.
   */
  CAUCHY,

  /**
   * The {@link #CAUCHY} parity rows with column j multiplied by {@code k XOR j}, the inverse of its
   * entry in parity row 0: parity row 0 becomes all ones, so parity unit k is the XOR of the data
   * units. Scaling a column by a non-zero constant scales every square submatrix's determinant by a
   * non-zero constant, so the code stays MDS; and a parity row still depends only on its index and k.
   * For the packed-stripe form (LogECMem), where the XOR parity is kept in memory and updated in
   * place by plain XOR of a data unit's change.
   */
  XOR_FIRST_CAUCHY
}
