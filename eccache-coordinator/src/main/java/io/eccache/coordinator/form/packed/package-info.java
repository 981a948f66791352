/**
 * LogECMem's packed stripes as a storage form (issue 37, under way): small values packed into the
 * units of RS(k, r) stripes, updated by hybrid parity logging. So far the pieces with no Alluxio
 * in them: a namespace's configuration ({@link io.eccache.coordinator.form.packed.PackedNamespace})
 * and the packing of new values into units and stripes ({@code UnitQueues}). The form is not
 * registered with the coordinator until it stores and reads values end to end.
 */
package io.eccache.coordinator.form.packed;
