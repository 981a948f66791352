/**
 * Agar's evaluation (ICDCS'17, section V) in simulated time, over {@code io.eccache.policy.agar}'s own
 * policies and read model: closed-loop clients, Zipf reads, periodic reconfiguration, the cache-size and
 * skew sweeps of Fig. 8a and 8b, their report ({@code eccache-bench agar-sim}), and the knapsack solvers'
 * JMH benchmark.
 */
package io.eccache.benchmarks.sim.agar;
