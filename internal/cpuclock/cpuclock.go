// Package cpuclock reads the CPU time the process has used, all threads
// counted (user and system): the store's writer, the garbage collector and
// the kernel's work for its system calls included. On a shared machine it is
// a steadier measure of work than the time on the clock, so the benchmarks
// and the load tool report CPU per operation with it.
package cpuclock
