package answerzip

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"

	"nimbot/internal/cpuclock"
)

// dictAnswers are the answers dictionary 1 is made of.
func dictAnswers() [][]byte {
	return bytes.Split(bytes.TrimSuffix(dict1Text, []byte("\n")), []byte("\n"))
}

func roundTrip(t *testing.T, name string, b []byte) []byte {
	t.Helper()
	stored := Pack(b)
	if stored == nil {
		t.Fatalf("%s: Pack returned nil", name)
	}
	got, err := Unpack(stored)
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("%s: %q packs to %x, which reads back as %q (%v)", name, b, stored, got, err)
	}
	return stored
}

// TestPackRoundTrip: whatever is packed reads back byte for byte: answers,
// text, bytes that look like the stored form, incompressible bytes, and
// answers past MaxPacked, stored as they are.
func TestPackRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 4000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	board := dictAnswers()[0]
	cases := map[string][]byte{
		"nil":          nil,
		"empty":        {},
		"object":       []byte(`{}`),
		"null":         []byte(`null`),
		"text":         []byte("hint"),
		"space first":  []byte(" {\"type\":4}"),
		"tab first":    []byte("\t{}"),
		"random":       random,
		"board":        board,
		"largest":      bytes.Repeat([]byte("x"), MaxPacked),
		"too large":    bytes.Repeat(board, MaxPacked/len(board)+1),
		"random large": append(bytes.Repeat([]byte{0}, 10), random...),
	}
	for b := range firstText + 1 {
		cases["starts with "+string('0'+rune(b))] = []byte{b, '{', '}'}
		cases["long, starts with "+string('0'+rune(b))] = append([]byte{b}, random...)
		cases["compressible, starts with "+string('0'+rune(b))] = append([]byte{b}, board...)
	}
	for name, b := range cases {
		stored := roundTrip(t, name, b)
		if len(stored) > len(b)+1 {
			t.Errorf("%s: %d bytes stored in %d", name, len(b), len(stored))
		}
	}
	if stored := Pack(cases["too large"]); !bytes.Equal(stored, cases["too large"]) {
		t.Errorf("an answer past MaxPacked is stored as it is")
	}
	if stored := Pack(board); stored[0] != s2Dict1 || len(stored)*4 > len(board) {
		t.Errorf("a board of %d bytes is stored in %d, starting %#x", len(board), len(stored), stored[0])
	}
	// Pack never keeps a reference to its scratch buffer.
	a, b := Pack(board), Pack(dictAnswers()[1])
	if got, _ := Unpack(a); !bytes.Equal(got, board) {
		t.Errorf("a second Pack changed the first's result: %x", b)
	}
}

// TestUnpackPlain: rows written before this format (the answer's plain
// JSON) read back as they are.
func TestUnpackPlain(t *testing.T) {
	for _, a := range dictAnswers() {
		if got, err := Unpack(a); err != nil || !bytes.Equal(got, a) {
			t.Fatalf("plain JSON reads back as %q, %v", got, err)
		}
	}
}

// TestUnpackRefuses: bytes Pack could not have written are an error.
func TestUnpackRefuses(t *testing.T) {
	board := Pack(dictAnswers()[0])
	huge := append([]byte{s2Dict1}, s2.Encode(nil, bytes.Repeat([]byte("x"), MaxPacked+1))...)
	cases := map[string][]byte{
		"format 2":         {2, 'x'},
		"format 8":         {8},
		"block, no length": {s2Dict1},
		"truncated block":  board[:len(board)/2],
		"longer block":     append(bytes.Clone(board), 0xff),
		"block too large":  huge,
		"length only":      {s2Dict1, 0xff, 0xff, 0x03},
		"bad varint":       {s2Dict1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	}
	for name, b := range cases {
		if got, err := Unpack(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %x reads back as %q, %v; want ErrCorrupt", name, b, got, err)
		}
	}
}

// TestDictionariesFrozen: a shipped dictionary never changes, or the rows
// written with it would read back wrong: dictionary 1 is the file whose
// hash is below, and a board stored with it (testdata) still reads back.
func TestDictionariesFrozen(t *testing.T) {
	const dict1SHA256 = "72178e763fc8f8c0f2c3fe5705fc9bd882d6fdcaeb8bd8eb691032fe51334a81"
	if sum := sha256.Sum256(dict1Text); hex.EncodeToString(sum[:]) != dict1SHA256 {
		t.Fatalf("dict1.jsonl changed (sha256 %x); rows stored with it would no longer read back: add a new dictionary instead", sum)
	}
	stored, err := os.ReadFile("testdata/board.s2dict1")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/board.json")
	if err != nil {
		t.Fatal(err)
	}
	if stored[0] != s2Dict1 {
		t.Fatalf("testdata/board.s2dict1 starts with %#x", stored[0])
	}
	got, err := Unpack(stored)
	if err != nil || !bytes.Equal(got, bytes.TrimSuffix(want, []byte("\n"))) {
		t.Fatalf("a board stored with dictionary 1 reads back as %q, %v", got, err)
	}
}

// FuzzUnpack: any stored bytes, hostile ones included, read back or fail
// with ErrCorrupt, never panic; what reads back packs again to bytes that
// read back the same.
func FuzzUnpack(f *testing.F) {
	for _, a := range dictAnswers()[:8] {
		f.Add(Pack(a))
		f.Add(a)
	}
	f.Add([]byte{})
	f.Add([]byte{plain, 1, 2})
	f.Add([]byte{s2Dict1})
	f.Add([]byte{s2Dict1, 0xff, 0xff, 0x03, 0})
	f.Fuzz(func(t *testing.T, stored []byte) {
		got, err := Unpack(stored)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%x: %v, not ErrCorrupt", stored, err)
			}
			return
		}
		if len(got) > max(len(stored), MaxPacked) {
			t.Fatalf("%d bytes read back as %d", len(stored), len(got))
		}
		again, err := Unpack(Pack(got))
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("%x packed again reads back as %x, %v", got, again, err)
		}
	})
}

// FuzzPack: any answer reads back byte for byte.
func FuzzPack(f *testing.F) {
	for _, a := range dictAnswers()[:8] {
		f.Add(a)
		f.Add([]byte(strings.ReplaceAll(string(a), "a", "ä")))
	}
	f.Add([]byte{s2Dict1, 'x'})
	f.Fuzz(func(t *testing.T, answer []byte) {
		got, err := Unpack(Pack(answer))
		if err != nil || !bytes.Equal(got, answer) {
			t.Fatalf("%q reads back as %q, %v", answer, got, err)
		}
	})
}

// BenchmarkPack packs and unpacks testdata/board.json (Nim 3 4 5 against
// nimbot after two moves, 2.2 KB of JSON; not in the dictionary), and
// reports its stored bytes and the process's CPU time per op (cpu-ns/op:
// on a loaded machine ns/op counts the time others ran too).
func BenchmarkPack(b *testing.B) {
	board, err := os.ReadFile("testdata/board.json")
	if err != nil {
		b.Fatal(err)
	}
	stored := Pack(board)
	b.Run("Pack", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b)()
		for b.Loop() {
			Pack(board)
		}
		b.ReportMetric(float64(len(stored)), "B/answer")
		b.ReportMetric(float64(len(board)), "JSON-B/answer")
	})
	b.Run("Unpack", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b)()
		for b.Loop() {
			if _, err := Unpack(stored); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// cpu starts counting the process's CPU time; the function it returns
// reports it per op.
func cpu(b *testing.B) func() {
	start := cpuclock.Process()
	return func() {
		b.ReportMetric(float64((cpuclock.Process()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
