package metrics

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Sample returns the value of one series in body, a /metrics page in
// Prometheus's text format as promhttp writes it. series is the metric's
// name with its labels as that page writes them: process_cpu_seconds_total,
// or nimbot_interactions_total{kind="component"}. ok is false when body has
// no such line. The load tool reads a server's CPU with it, and the tests
// their counters.
func Sample(body io.Reader, series string) (v float64, ok bool, err error) {
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		if rest, found := strings.CutPrefix(sc.Text(), series+" "); found {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				return 0, false, fmt.Errorf("%s: %w", series, err)
			}
			return v, true, nil
		}
	}
	return 0, false, sc.Err()
}
