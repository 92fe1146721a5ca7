// Command nimbot hosts games of Nim and its relatives in Discord channels.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "nimbot: under construction")
	os.Exit(2)
}
