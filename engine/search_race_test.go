//go:build race

package engine

// raceEnabled is true under the race detector, which slows the exhaustive agreement tests about
// tenfold, and they are single-threaded, so under -race they run at the
// smaller -short bounds (the full bounds run in the plain `go test`).
const raceEnabled = true
