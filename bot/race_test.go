//go:build race

package bot

// raceEnabled is true under the race detector, which slows the
// single-threaded curve arithmetic of the differential tests about tenfold:
// under -race they run at their -short bounds (the full bounds run in the
// plain `go test`).
const raceEnabled = true
