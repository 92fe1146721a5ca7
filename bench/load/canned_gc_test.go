package main

import "os"

// tuneClientGC sets the collector as the tool does with -spawn.
func tuneClientGC(o options) { tuneGC(o, os.Getenv) }
