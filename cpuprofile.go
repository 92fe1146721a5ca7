package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startCPUProfile profiles the whole process into the file NIMBOT_CPUPROFILE
// names, if it is set, and returns the function that ends the profile (at
// exit, after an orderly shutdown). It is how bench/load measures where a
// separate serve spends its CPU; unset, it costs nothing.
func startCPUProfile(errOut io.Writer) (stop func()) {
	path := os.Getenv("NIMBOT_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(errOut, "nimbot: NIMBOT_CPUPROFILE: %v\n", err)
		if f != nil {
			f.Close()
		}
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
