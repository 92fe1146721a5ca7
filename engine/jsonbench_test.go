package engine

import (
	"encoding/json"
	"testing"
)

// BenchmarkStoredJSON measures the JSON the store writes for every turn (a
// move and the new position: json.Marshal, which uses MarshalJSON) and
// reads for every click (a game's rules and position, a move: the Decode
// functions), beside encoding/json's own decoding of the same bytes.
func BenchmarkStoredJSON(b *testing.B) {
	move := Move{Kind: Take, Heap: 2, Take: 3}
	pos := Position{Heaps: []int64{3, 4, 2}}
	rules := Rules{Variant: Nim}
	moveJSON, _ := json.Marshal(move)
	posJSON, _ := json.Marshal(pos)
	rulesJSON, _ := json.Marshal(rules)
	b.Run("encode/move", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := json.Marshal(move); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode/position", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := json.Marshal(pos); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/move", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := DecodeMove(moveJSON); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/position", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := DecodePosition(posJSON); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/rules", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := DecodeRules(rulesJSON); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal/move", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			var m Move
			if err := json.Unmarshal(moveJSON, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal/position", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			var p Position
			if err := json.Unmarshal(posJSON, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
