package commands

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"testing"

	"nimbot/commands/locale"
	"nimbot/engine"
	"nimbot/internal/answerzip"
	"nimbot/match"
)

var answerDict = flag.String("answer-dict", "", "TestWriteAnswerDictionary writes a new saved-answer dictionary (internal/answerzip) to this file")

// savedAnswers plays, in lang, every variant against nimbot and a challenge
// between people (speaker.playBot, speaker.people) on a fresh store, and
// returns every answer the store saved, in the order they were saved: the
// answers a redelivery gets back.
func savedAnswers(t testing.TB, lang string, seed uint64) [][]byte {
	t.Helper()
	s := speaker{newHarness(t, seed), lang}
	for k, v := range engine.Variants() {
		s.channel = fmt.Sprintf("12200000000000001%02d", k)
		s.playBot(t, v)
	}
	s.channel = chanB
	s.people(t)
	var out [][]byte
	for n := 1; n <= s.n; n++ {
		b, err := s.db.Response(context.Background(), interactionID(n))
		switch {
		case errors.Is(err, match.ErrNotFound):
			continue
		case err != nil:
			t.Fatalf("response %d: %v", n, err)
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		t.Fatalf("%s: nothing saved", lang)
	}
	return out
}

// checkPacked checks that the stored form of an answer reads back as the
// same bytes.
func checkPacked(t testing.TB, b []byte) {
	t.Helper()
	got, err := answerzip.Unpack(answerzip.Pack(b))
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("stored form of an answer reads back as %q (%v), not\n%s", got, err, b)
	}
}

// TestSavedAnswersRoundTrip: every answer the store saves while every
// variant is played in every language reads back byte for byte, and the
// boards among them are stored compressed. (checkEncoding packs every
// board of TestBoardsInEveryLanguage too, the largest included.)
func TestSavedAnswersRoundTrip(t *testing.T) {
	for _, lang := range renderLangs() {
		t.Run(lang, func(t *testing.T) {
			var plain, packed int
			for _, b := range savedAnswers(t, lang, 2) {
				checkPacked(t, b)
				plain += len(b)
				packed += len(answerzip.Pack(b))
			}
			// Not a benchmark: a dictionary that failed to load, or
			// answers stored as they are, would leave them all.
			if packed*2 > plain {
				t.Errorf("%s: answers stored in %d bytes of %d", lang, packed, plain)
			}
		})
	}
}

// TestWriteAnswerDictionary writes a dictionary for internal/answerzip when
// asked (go test ./commands -run TestWriteAnswerDictionary -answer-dict
// FILE): whole answers the store saved in each shipped language (English
// last, nearest the answers compressed against it), an equal share each,
// one per line, up to S2's 64 KB. A dictionary once shipped never changes
// (rows written with it must stay readable): a new one is a new format
// byte in answerzip, which keeps the old.
func TestWriteAnswerDictionary(t *testing.T) {
	if *answerDict == "" {
		t.Skip("writes a dictionary only when asked: -answer-dict FILE")
	}
	langs := locale.Languages()
	langs = append(langs[1:], langs[0]) // English last
	share := (64<<10 - 1) / len(langs)
	var dict []byte
	for _, lang := range langs {
		answers := savedAnswers(t, lang, 1)
		total := 0
		for _, b := range answers {
			total += len(b) + 1
		}
		// Every stride-th answer, spread over every variant's game.
		stride := total/share + 1
		used := 0
		for k := 0; k < len(answers); k += stride {
			b := answers[k]
			if used+len(b)+1 > share {
				break
			}
			dict = append(append(dict, b...), '\n')
			used += len(b) + 1
		}
	}
	if err := os.WriteFile(*answerDict, dict, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d bytes to %s", len(dict), *answerDict)
}

// BenchmarkPackAnswer packs and unpacks the answers saved while every
// variant is played (seed 2; the dictionary was drawn from seed 1's) in
// English, German and Japanese, one answer per op, and reports the stored
// bytes per answer (B/answer, against JSON-B/answer) and their ratio.
func BenchmarkPackAnswer(b *testing.B) {
	for _, lang := range []string{"en", "de", "ja"} {
		answers := savedAnswers(b, lang, 2)
		var plain, packed int
		stored := make([][]byte, len(answers))
		for k, a := range answers {
			stored[k] = answerzip.Pack(a)
			plain += len(a)
			packed += len(stored[k])
		}
		report := func(b *testing.B) {
			b.ReportMetric(float64(plain)/float64(len(answers)), "JSON-B/answer")
			b.ReportMetric(float64(packed)/float64(len(answers)), "B/answer")
			b.ReportMetric(float64(packed)/float64(plain), "ratio")
		}
		b.Run("Pack/"+lang, func(b *testing.B) {
			b.ReportAllocs()
			for k := 0; b.Loop(); k++ {
				answerzip.Pack(answers[k%len(answers)])
			}
			report(b)
		})
		b.Run("Unpack/"+lang, func(b *testing.B) {
			b.ReportAllocs()
			for k := 0; b.Loop(); k++ {
				if _, err := answerzip.Unpack(stored[k%len(stored)]); err != nil {
					b.Fatal(err)
				}
			}
			report(b)
		})
	}
}
