package main

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

// snowflake's ids increase, across goroutines too, and their high bits are
// the time; after a clock that stepped back (an id from ahead of now) they
// go on from the last one.
func TestSnowflake(t *testing.T) {
	parse := func(s string) uint64 {
		t.Helper()
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	const goroutines, each = 8, 20000
	ids := make([][]uint64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for range each {
				ids[g] = append(ids[g], parse(snowflake()))
			}
		})
	}
	wg.Wait()
	seen := make(map[uint64]bool, goroutines*each)
	for g, list := range ids {
		for k, id := range list {
			if k > 0 && id <= list[k-1] {
				t.Fatalf("goroutine %d: id %d after %d", g, id, list[k-1])
			}
			if seen[id] {
				t.Fatalf("id %d twice", id)
			}
			seen[id] = true
		}
	}
	ms := int64(parse(snowflake())>>22) + discordEpoch
	if d := time.Since(time.UnixMilli(ms)); d < -time.Second || d > time.Minute {
		t.Fatalf("an id's time is %v from now", d)
	}
	ahead := uint64(time.Now().Add(time.Second).UnixMilli()-discordEpoch) << 22
	lastSnowflake.Store(ahead)
	if id := parse(snowflake()); id != ahead+1 {
		t.Fatalf("after %d (a second ahead of the clock): %d", ahead, id)
	}
}
