// Package measure holds what winnow's benchmarks share: durations that
// read as milliseconds, nearest-rank percentiles, the machine's load, the
// CPU time of the calling thread, and a file a benchmark changes and gives
// back.
package measure
