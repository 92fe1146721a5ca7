// Package answerzip is the stored form of a saved answer: the JSON nimbot
// answered an interaction with, kept so that a redelivery of the
// interaction gets the same bytes back (commands' answers).
//
// Saved answers were nine tenths of the database's bytes and two thirds of
// the write-ahead log's pages per move, written and fsync'd by the store's
// one writer, while they are read back only when Discord delivers an
// interaction again. So they are stored compressed: an S2 block (a
// Snappy-like format, github.com/klauspost/compress/s2) against a
// dictionary of the bot's own answers embedded in the binary, which takes
// 1.5–3 µs per answer and leaves a fifth of its bytes. Without a
// dictionary S2 keeps more than half of a short answer; zstd with a
// dictionary built for it kept no less (0.22) for ten times the time, and
// flate cost more time (55 µs) than the pages it saved (BENCHMARKS.md,
// "Store: saved answers compressed"). S2's encoder clears a 64 KB table on
// the caller's stack per call: the first Pack on a goroutine grows its
// stack once.
//
// The stored form describes itself by its first byte, so every row stays
// readable for as long as it lives, whatever is written later:
//
//   - 0x01: an S2 block encoded against dictionary 1 (dict1.jsonl);
//   - 0x00: the answer follows as it is (an answer that does not compress,
//     or that itself starts with one of these bytes);
//   - 0x02 to 0x08: reserved for later formats and dictionaries; Unpack
//     refuses them;
//   - any other byte: the answer as it is. JSON (answers start with '{')
//     and text never start with a byte below 0x09, so the plain JSON rows
//     written before this format read back unchanged, as does an empty
//     answer.
//
// A new dictionary is a new first byte, with the old dictionary kept for
// the rows written with it; a dictionary once shipped never changes
// (TestDictionariesFrozen).
package answerzip

import (
	"bytes"
	_ "embed" // the dictionaries
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/s2"
)

// The first bytes of the stored form.
const (
	// plain: the answer follows as it is.
	plain byte = 0x00
	// s2Dict1: an S2 block against dictionary 1.
	s2Dict1 byte = 0x01
	// firstText is the first byte the stored form leaves to the answer
	// itself: every byte below it is a format.
	firstText byte = 0x09
)

// MaxPacked is the largest answer Pack compresses, and the largest Unpack
// expands a block to. A board is 1–8 KB; a larger answer is stored as it
// is, and a stored block claiming more is refused rather than allocated.
const MaxPacked = 64 << 10

// dict1Text is dictionary 1: about 64 KB of answers the bot rendered (every
// variant's boards, hints and refusals in each shipped language, one per
// line), written by commands' TestWriteAnswerDictionary. S2 copies any
// string of the answer it finds in it.
//
//go:embed dict1.jsonl
var dict1Text []byte

// dict1 is dictionary 1 as S2 uses it. Its initial repeat offset is the
// start of the last answer in it (where an answer most likely repeats the
// dictionary), fixed by the frozen text, not by a search that a later S2
// might do otherwise.
var dict1 = s2.MakeDictManual(dict1Text, uint16(bytes.LastIndexByte(dict1Text[:len(dict1Text)-1], '\n')+1))

// bufs are scratch buffers for Pack, sized for the largest block.
var bufs = sync.Pool{New: func() any { b := make([]byte, 1+s2.MaxEncodedLen(MaxPacked)); return &b }}

// Pack returns the stored form of answer: compressed when that makes it
// shorter, else answer as it is (prefixed with the plain byte if answer
// itself starts with a format byte). The result may be answer itself; it is
// never nil.
func Pack(answer []byte) []byte {
	if len(answer) == 0 {
		return []byte{}
	}
	if len(answer) <= MaxPacked {
		buf := bufs.Get().(*[]byte)
		b := *buf
		b[0] = s2Dict1
		block := dict1.Encode(b[1:], answer)
		var out []byte
		if n := 1 + len(block); n < len(answer) {
			// A copy of just its size: the scratch buffer is ~75 KB.
			out = make([]byte, n)
			out[0] = s2Dict1
			copy(out[1:], block)
		}
		bufs.Put(buf)
		if out != nil {
			return out
		}
	}
	if answer[0] < firstText {
		return append([]byte{plain}, answer...)
	}
	return answer
}

// ErrCorrupt: a stored answer cannot be read back.
var ErrCorrupt = errors.New("answerzip: corrupt stored answer")

// Unpack returns the answer stored as stored (Pack's output, or an answer
// stored as it is before this format). It fails with an error wrapping
// ErrCorrupt on bytes Pack could not have written; it never panics.
func Unpack(stored []byte) ([]byte, error) {
	if len(stored) == 0 || stored[0] >= firstText {
		return stored, nil
	}
	switch stored[0] {
	case plain:
		return stored[1:], nil
	case s2Dict1:
		block := stored[1:]
		n, err := s2.DecodedLen(block)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		case n > MaxPacked:
			return nil, fmt.Errorf("%w: a block of %d bytes, more than %d", ErrCorrupt, n, MaxPacked)
		}
		out, err := dict1.Decode(make([]byte, n), block)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: unknown format %#02x", ErrCorrupt, stored[0])
}
