/*
 * JNI binding of eccache's Reed-Solomon coder over Intel ISA-L: encode (ec_encode_data) and the update
 * of parity by one data unit's change (ec_encode_data_update), each over direct buffers passed as
 * buffers or as addresses, or over units of which some lie in pinned Java arrays.
 *
 * The Java side validates every argument before calling in (counts, sizes, which buffers are direct), so these
 * functions only guard what would otherwise crash the JVM and throw IllegalArgumentException for it.
 * Nothing here keeps state: the coding tables live in Java-owned direct buffers (immutable once
 * built), which makes every call reentrant and lets the garbage collector own their lifetime.
 */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/erasure_code.h>

#include "io_eccache_isal_IsalNative.h"

/* GF(2^8): at most 255 distinct rows in a Cauchy generator matrix. */
#define MAX_UNITS 255

static void throw_illegal_argument(JNIEnv *env, const char *message) {
  jclass cls = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
  if (cls != NULL) {
    (*env)->ThrowNew(env, cls, message);
  }
}

static int units_in_range(JNIEnv *env, jint k, jint rows) {
  if (k < 1 || rows < 1 || k + rows > MAX_UNITS) {
    throw_illegal_argument(env, "isal-jni: need 1 <= k, 1 <= rows and k + rows <= 255");
    return 0;
  }
  return 1;
}

/*
 * What one call computes. vec_i < 0: ec_encode_data, the rows outputs from k inputs. Otherwise
 * ec_encode_data_update: each output ^= its coefficient in column vec_i times the one input (a data
 * unit's change), onto zeroed outputs when overwrite is set. Both take tables from ec_init_tables
 * for rows x k coefficients.
 */
struct job {
  jint k;
  jint rows;
  jint vec_i;
  jboolean overwrite;
};

static jint job_inputs(const struct job *job) {
  return job->vec_i < 0 ? job->k : 1;
}

/* An update job; 0 (with an exception pending) when its data index is not a column of k. */
static int update_job(JNIEnv *env, jint k, jint rows, jint data_index, jboolean overwrite,
                      struct job *job) {
  if (data_index < 0 || data_index >= k) {
    throw_illegal_argument(env, "isal-jni: the data index must be in 0..k-1");
    return 0;
  }
  job->k = k;
  job->rows = rows;
  job->vec_i = data_index;
  job->overwrite = overwrite;
  return 1;
}

static void run(const struct job *job, jint len, unsigned char *tbl, unsigned char **in,
                unsigned char **out) {
  if (job->vec_i < 0) {
    ec_encode_data(len, job->k, job->rows, tbl, in, out);
    return;
  }
  if (job->overwrite) {
    for (jint i = 0; i < job->rows; i++) {
      memset(out[i], 0, (size_t)len);
    }
  }
  ec_encode_data_update(len, job->k, job->rows, job->vec_i, tbl, in[0], out);
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_generateCauchyMatrix(
    JNIEnv *env, jclass cls, jbyteArray matrix, jint m, jint k) {
  (void)cls;
  if (!units_in_range(env, k, m - k)) {
    return;
  }
  if ((*env)->GetArrayLength(env, matrix) < m * k) {
    throw_illegal_argument(env, "isal-jni: matrix array shorter than m * k");
    return;
  }
  unsigned char *a = malloc((size_t)m * (size_t)k);
  if (a == NULL) {
    jclass oom = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
    if (oom != NULL) {
      (*env)->ThrowNew(env, oom, "isal-jni: cannot allocate the generator matrix");
    }
    return;
  }
  gf_gen_cauchy1_matrix(a, m, k);
  (*env)->SetByteArrayRegion(env, matrix, 0, m * k, (const jbyte *)a);
  free(a);
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_initTables(
    JNIEnv *env, jclass cls, jint k, jint rows, jbyteArray matrix, jobject tables) {
  (void)cls;
  if (!units_in_range(env, k, rows)) {
    return;
  }
  if ((*env)->GetArrayLength(env, matrix) < rows * k) {
    throw_illegal_argument(env, "isal-jni: coefficient array shorter than rows * k");
    return;
  }
  unsigned char *out = (*env)->GetDirectBufferAddress(env, tables);
  if (out == NULL || (*env)->GetDirectBufferCapacity(env, tables) < (jlong)32 * k * rows) {
    throw_illegal_argument(env, "isal-jni: tables must be a direct buffer of 32 * k * rows bytes");
    return;
  }
  unsigned char coefficients[rows * k];
  (*env)->GetByteArrayRegion(env, matrix, 0, rows * k, (jbyte *)coefficients);
  ec_init_tables(k, rows, coefficients, out);
}

/* Resolves buffers[i] + positions[i] into addresses[i]; 0 (with an exception pending) on failure. */
static int resolve(JNIEnv *env, jobjectArray buffers, const jint *positions, jint count,
                   unsigned char **addresses) {
  for (jint i = 0; i < count; i++) {
    jobject buffer = (*env)->GetObjectArrayElement(env, buffers, i);
    unsigned char *base = buffer == NULL ? NULL : (*env)->GetDirectBufferAddress(env, buffer);
    /* The array still references the buffer for the whole call, so its memory stays valid. */
    (*env)->DeleteLocalRef(env, buffer);
    if (base == NULL) {
      throw_illegal_argument(env, "isal-jni: every buffer must be a non-null direct ByteBuffer");
      return 0;
    }
    addresses[i] = base + positions[i];
  }
  return 1;
}

/*
 * The coding tables of a call that has work to do, or NULL: when the unit counts are out of range
 * or the tables are no direct buffer (an exception is pending), or when len is 0 (nothing to do).
 */
static unsigned char *tables_to_apply(JNIEnv *env, jobject tables, const struct job *job,
                                      jint len) {
  if (!units_in_range(env, job->k, job->rows) || len <= 0) {
    return NULL;
  }
  unsigned char *tbl = (*env)->GetDirectBufferAddress(env, tables);
  if (tbl == NULL) {
    throw_illegal_argument(env, "isal-jni: tables must be a direct buffer");
  }
  return tbl;
}

/* The job over direct buffers, resolved here: inputs[i] at positions[i], outputs after them. */
static void code_buffers(JNIEnv *env, jobject tables, const struct job *job, jint len,
                         jobjectArray inputs, jobjectArray outputs, jintArray positions) {
  unsigned char *tbl = tables_to_apply(env, tables, job, len);
  if (tbl == NULL) {
    return;
  }
  const jint n_in = job_inputs(job);
  const jint rows = job->rows;
  jint pos[n_in + rows];
  (*env)->GetIntArrayRegion(env, positions, 0, n_in + rows, pos);
  if ((*env)->ExceptionCheck(env)) {
    return;
  }
  unsigned char *in[n_in];
  unsigned char *out[rows];
  if (!resolve(env, inputs, pos, n_in, in) || !resolve(env, outputs, pos + n_in, rows, out)) {
    return;
  }
  run(job, len, tbl, in, out);
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_encode(
    JNIEnv *env, jclass cls, jobject tables, jint k, jint rows, jint len,
    jobjectArray inputs, jobjectArray outputs, jintArray positions) {
  (void)cls;
  const struct job job = {k, rows, -1, JNI_FALSE};
  code_buffers(env, tables, &job, len, inputs, outputs, positions);
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_update(
    JNIEnv *env, jclass cls, jobject tables, jint k, jint rows, jint data_index,
    jboolean overwrite, jint len, jobjectArray inputs, jobjectArray outputs, jintArray positions) {
  (void)cls;
  struct job job;
  if (update_job(env, k, rows, data_index, overwrite, &job)) {
    code_buffers(env, tables, &job, len, inputs, outputs, positions);
  }
}

/* The job over addresses resolved in Java: the inputs', then the outputs'. */
static void code_addresses(JNIEnv *env, jlong tables, const struct job *job, jint len,
                           jlongArray addresses) {
  if (!units_in_range(env, job->k, job->rows)) {
    return;
  }
  if (len <= 0) {
    return;
  }
  const jint units_count = job_inputs(job) + job->rows;
  if (tables == 0 || (*env)->GetArrayLength(env, addresses) < units_count) {
    throw_illegal_argument(env, "isal-jni: need the tables' address and one address per unit");
    return;
  }
  jlong raw[units_count];
  (*env)->GetLongArrayRegion(env, addresses, 0, units_count, raw);
  unsigned char *units[units_count];
  for (jint i = 0; i < units_count; i++) {
    if (raw[i] == 0) {
      throw_illegal_argument(env, "isal-jni: null unit address");
      return;
    }
    units[i] = (unsigned char *)(intptr_t)raw[i];
  }
  run(job, len, (unsigned char *)(intptr_t)tables, units, units + job_inputs(job));
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_encodeAddresses(
    JNIEnv *env, jclass cls, jlong tables, jint k, jint rows, jint len, jlongArray addresses) {
  (void)cls;
  const struct job job = {k, rows, -1, JNI_FALSE};
  code_addresses(env, tables, &job, len, addresses);
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_updateAddresses(
    JNIEnv *env, jclass cls, jlong tables, jint k, jint rows, jint data_index, jboolean overwrite,
    jint len, jlongArray addresses) {
  (void)cls;
  struct job job;
  if (update_job(env, k, rows, data_index, overwrite, &job)) {
    code_addresses(env, tables, &job, len, addresses);
  }
}

/*
 * Bytes per unit coded per ISA-L call while Java arrays are pinned: the pins are dropped
 * between chunks, so a garbage collection waiting for this thread's critical region waits for one
 * chunk (11 x 256 KiB at RS(10,1): well under a millisecond), not for a whole cell.
 */
#define PINNED_CHUNK (256 * 1024)

/*
 * The job over units of which some lie in Java arrays: unit i (the inputs, then the outputs) is in
 * arrays[array_of[i]] from byte offsets[i], or direct (array_of[i] < 0) at address offsets[i] when
 * directs is NULL, else at position offsets[i] of directs[i].
 */
static void code_mixed(JNIEnv *env, jobject tables, const struct job *job, jint len,
                       jobjectArray directs, jlongArray offsets, jintArray array_of,
                       jobjectArray arrays) {
  unsigned char *tbl = tables_to_apply(env, tables, job, len);
  if (tbl == NULL) {
    return;
  }
  const jint n_in = job_inputs(job);
  const jint units = n_in + job->rows;
  jlong offset[units];
  jint which[units];
  (*env)->GetLongArrayRegion(env, offsets, 0, units, offset);
  if ((*env)->ExceptionCheck(env)) {
    return;
  }
  (*env)->GetIntArrayRegion(env, array_of, 0, units, which);
  if ((*env)->ExceptionCheck(env)) {
    return;
  }
  const jint count = arrays == NULL ? 0 : (*env)->GetArrayLength(env, arrays);
  if (count > units) {
    throw_illegal_argument(env, "isal-jni: more arrays than units");
    return;
  }
  /* Everything that calls into the JVM happens before any array is pinned. */
  if ((*env)->EnsureLocalCapacity(env, count + 1) != 0) {
    return; /* OutOfMemoryError pending */
  }
  const jint slots = count > 0 ? count : 1;
  jbyteArray array[slots];
  jsize length[slots];
  /* An array is released with 0 (kept) if any output lies in it, else with JNI_ABORT. Each array
     is pinned once per chunk however many units lie in it: where the VM pins by copying (as with
     -Xcheck:jni), two pins of one array would write a stale copy back over the other's outputs. */
  jint mode[slots];
  unsigned char *pinned[slots];
  unsigned char *direct[units];
  unsigned char *unit[units];
  const char *error = NULL;
  jint got = 0;
  for (; got < count; got++) {
    array[got] = (jbyteArray)(*env)->GetObjectArrayElement(env, arrays, got);
    if (array[got] == NULL) {
      error = "isal-jni: null array";
      break;
    }
    length[got] = (*env)->GetArrayLength(env, array[got]);
    mode[got] = JNI_ABORT;
  }
  for (jint i = 0; i < units && error == NULL; i++) {
    direct[i] = NULL;
    if (which[i] < 0) {
      unsigned char *base = NULL;
      if (directs == NULL) {
        base = (unsigned char *)(intptr_t)offset[i]; /* resolved in Java, position included */
      } else {
        jobject buffer = (*env)->GetObjectArrayElement(env, directs, i);
        if ((*env)->ExceptionCheck(env)) {
          error = ""; /* ArrayIndexOutOfBoundsException pending */
          break;
        }
        base = buffer == NULL ? NULL : (*env)->GetDirectBufferAddress(env, buffer);
        (*env)->DeleteLocalRef(env, buffer); /* the array references it for the whole call */
        if (base != NULL) {
          base += offset[i];
        }
      }
      if (base == NULL) {
        error = "isal-jni: a unit without an array must be a direct ByteBuffer";
      }
      direct[i] = base;
    } else if (which[i] >= count || offset[i] < 0 || offset[i] > length[which[i]] - (jlong)len) {
      error = "isal-jni: a unit lies outside its array";
    } else if (i >= n_in) {
      mode[which[i]] = 0;
    }
  }
  for (jint done = 0; error == NULL && done < len; done += PINNED_CHUNK) {
    const jint n = len - done < PINNED_CHUNK ? len - done : PINNED_CHUNK;
    jint held = 0;
    /* Critical region: no JNI calls but Get/ReleasePrimitiveArrayCritical, no allocation. */
    while (held < count) {
      pinned[held] = (*env)->GetPrimitiveArrayCritical(env, array[held], NULL);
      if (pinned[held] == NULL) {
        break;
      }
      held++;
    }
    const int all = held == count;
    if (all) {
      for (jint i = 0; i < units; i++) {
        unit[i] = which[i] < 0 ? direct[i] + done : pinned[which[i]] + offset[i] + done;
      }
      run(job, n, tbl, unit, unit + n_in);
    }
    while (held > 0) {
      held--;
      (*env)->ReleasePrimitiveArrayCritical(env, array[held], pinned[held], mode[held]);
    }
    if (!all) {
      error = "isal-jni: cannot pin a byte array";
    }
  }
  for (jint j = 0; j < got; j++) {
    (*env)->DeleteLocalRef(env, array[j]);
  }
  if (error != NULL && error[0] != '\0' && !(*env)->ExceptionCheck(env)) {
    throw_illegal_argument(env, error);
  }
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_encodeMixed(
    JNIEnv *env, jclass cls, jobject tables, jint k, jint rows, jint len, jobjectArray directs,
    jlongArray offsets, jintArray array_of, jobjectArray arrays) {
  (void)cls;
  const struct job job = {k, rows, -1, JNI_FALSE};
  code_mixed(env, tables, &job, len, directs, offsets, array_of, arrays);
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_updateMixed(
    JNIEnv *env, jclass cls, jobject tables, jint k, jint rows, jint data_index, jboolean overwrite,
    jint len, jobjectArray directs, jlongArray offsets, jintArray array_of, jobjectArray arrays) {
  (void)cls;
  struct job job;
  if (update_job(env, k, rows, data_index, overwrite, &job)) {
    code_mixed(env, tables, &job, len, directs, offsets, array_of, arrays);
  }
}

JNIEXPORT jlong JNICALL Java_io_eccache_isal_IsalNative_address(
    JNIEnv *env, jclass cls, jobject buffer) {
  (void)cls;
  return (jlong)(intptr_t)(*env)->GetDirectBufferAddress(env, buffer);
}
