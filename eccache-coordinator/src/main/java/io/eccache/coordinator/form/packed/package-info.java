/**
 * LogECMem's packed stripes as a storage form (issue 37, under way): small values packed into the
 * units of RS(k, r) stripes, updated by hybrid parity logging. So far: a namespace's
 * configuration ({@link io.eccache.coordinator.form.packed.PackedNamespace}), the packing of new values into units and stripes ({@code UnitQueues}), and the stripes' records
 * with the lease and version rule every mutation obeys ({@code StripeStore}). The form is not
 * registered with the coordinator until it stores and reads values end to end.
 */
package io.eccache.coordinator.form.packed;
