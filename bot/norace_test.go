//go:build !race

package bot

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
