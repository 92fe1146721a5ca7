//go:build !race

package fixedbase

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
