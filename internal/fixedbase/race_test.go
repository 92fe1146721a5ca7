//go:build race

package fixedbase

// raceEnabled is true under the race detector, which slows the curve
// arithmetic about tenfold and finds nothing in it (nothing here is shared
// but the read-only tables): under -race the tests run at their -short
// bounds.
const raceEnabled = true
