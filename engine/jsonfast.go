package engine

import "encoding/json"

// Decoding the store's JSON. Every click reads a game's rules, start and
// position and every move played so far, each kept as JSON that
// json.Marshal wrote; encoding/json's reflection (and a json.Decoder per
// move in Move.UnmarshalJSON) was about 6 % of the server's CPU under load.
// DecodeRules, DecodePosition and DecodeMove read exactly the bytes
// json.Marshal writes for the common shapes directly, and hand anything
// else (other shapes, spacing, escapes, signs, leading zeros, huge numbers)
// to json.Unmarshal, so the result is always json.Unmarshal's: the same
// value for the same bytes, and an error where it errs
// (TestFastDecodeEqualsJSON, FuzzFastDecode).

// DecodeRules is json.Unmarshal of b into a zero Rules.
func DecodeRules(b []byte) (Rules, error) { return decode(b, fastRules) }

// DecodePosition is json.Unmarshal of b into a zero Position.
func DecodePosition(b []byte) (Position, error) { return decode(b, fastPosition) }

// DecodeMove is json.Unmarshal of b into a zero Move.
func DecodeMove(b []byte) (Move, error) { return decode(b, fastMove) }

// decode is fast's value when fast is sure of b, else json.Unmarshal's.
func decode[T any](b []byte, fast func([]byte) (T, bool)) (T, error) {
	if v, ok := fast(b); ok {
		return v, nil
	}
	var v T
	err := json.Unmarshal(b, &v)
	return v, err
}

// fastMove reads the five shapes Move.MarshalJSON writes (see moveJSON).
func fastMove(b []byte) (Move, bool) {
	s := scan{b: b}
	var m Move
	var ok bool
	switch {
	case s.lit(`{"takes":`):
		m.Kind = Multi
		m.Takes, ok = s.list()
	case s.lit(`{"heaps":[0,1],"take":`):
		m.Kind = Diagonal
		m.Take, ok = s.uint()
	case s.lit(`{"heap":`):
		var h int64
		if h, ok = s.uint(); !ok {
			return Move{}, false
		}
		m.Heap = int(h)
		switch {
		case s.lit(`,"split":`):
			m.Kind = Split
			m.Parts, ok = s.pair()
		case s.lit(`,"take":`):
			if m.Take, ok = s.uint(); ok && s.lit(`,"leave":`) {
				m.Kind = Knock
				m.Parts, ok = s.pair()
			}
		default:
			return Move{}, false
		}
	}
	if !ok || !s.lit(`}`) || !s.end() {
		return Move{}, false
	}
	return m, true
}

// fastPosition reads {"heaps":[A,B,...]} with an optional ,"limit":L.
func fastPosition(b []byte) (Position, bool) {
	s := scan{b: b}
	if !s.lit(`{"heaps":`) {
		return Position{}, false
	}
	heaps, ok := s.list()
	if !ok {
		return Position{}, false
	}
	p := Position{Heaps: heaps}
	if s.lit(`,"limit":`) {
		if p.Limit, ok = s.uint(); !ok {
			return Position{}, false
		}
	}
	if !s.lit(`}`) || !s.end() {
		return Position{}, false
	}
	return p, true
}

// fastRules reads {"variant":"V","misere":B} followed by any of ,"k":K,
// ,"set":[...] and ,"target":T in that order (json.Marshal's field order).
func fastRules(b []byte) (Rules, bool) {
	s := scan{b: b}
	if !s.lit(`{"variant":"`) {
		return Rules{}, false
	}
	v, ok := s.plainString()
	if !ok || !s.lit(`,"misere":`) {
		return Rules{}, false
	}
	r := Rules{Variant: Variant(v)}
	switch {
	case s.lit(`true`):
		r.Misere = true
	case s.lit(`false`):
	default:
		return Rules{}, false
	}
	if s.lit(`,"k":`) {
		k, ok := s.uint()
		if !ok {
			return Rules{}, false
		}
		r.K = int(k)
	}
	if s.lit(`,"set":`) {
		set, ok := s.list()
		if !ok {
			return Rules{}, false
		}
		r.Set = make([]int, len(set))
		for i, n := range set {
			r.Set[i] = int(n)
		}
	}
	if s.lit(`,"target":`) {
		t, ok := s.uint()
		if !ok {
			return Rules{}, false
		}
		r.Target = int(t)
	}
	if !s.lit(`}`) || !s.end() {
		return Rules{}, false
	}
	return r, true
}

// scan walks JSON bytes for the fast paths; each method reports false for
// anything it is not sure of, and the caller falls back to encoding/json.
type scan struct {
	b []byte
	i int
}

func (s *scan) end() bool { return s.i == len(s.b) }

// lit consumes t if the input continues with it.
func (s *scan) lit(t string) bool {
	if len(s.b)-s.i < len(t) || string(s.b[s.i:s.i+len(t)]) != t {
		return false
	}
	s.i += len(t)
	return true
}

// uint reads a non-negative JSON integer as json.Marshal writes it: no
// sign, no leading zero, no fraction or exponent, and at most 18 digits so
// it cannot overflow an int64 (or a 64-bit int).
func (s *scan) uint() (int64, bool) {
	start := s.i
	var n int64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		n = n*10 + int64(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 18 || (digits > 1 && s.b[start] == '0') {
		return 0, false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	return n, true
}

// list reads [A,B,...] of uints; [] is an empty, non-nil slice, as
// encoding/json makes it.
func (s *scan) list() ([]int64, bool) {
	if !s.lit(`[`) {
		return nil, false
	}
	// Read into room on the stack, then copy once: growing the slice
	// from empty took three allocations for three heaps.
	var room [16]int64
	out := room[:0]
	if s.lit(`]`) {
		return []int64{}, true
	}
	for {
		n, ok := s.uint()
		if !ok {
			return nil, false
		}
		out = append(out, n)
		if s.lit(`]`) {
			return append(make([]int64, 0, len(out)), out...), true
		}
		if !s.lit(`,`) {
			return nil, false
		}
	}
}

// pair reads [A,B] of uints.
func (s *scan) pair() ([2]int64, bool) {
	var p [2]int64
	var ok bool
	if !s.lit(`[`) {
		return p, false
	}
	if p[0], ok = s.uint(); !ok || !s.lit(`,`) {
		return p, false
	}
	if p[1], ok = s.uint(); !ok || !s.lit(`]`) {
		return p, false
	}
	return p, true
}

// plainString reads the rest of a string after its opening quote, when it
// holds only printable ASCII without escapes (so its bytes are its value).
func (s *scan) plainString() (string, bool) {
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			v := string(s.b[start:s.i])
			s.i++
			return v, true
		}
		if c < 0x20 || c > 0x7e || c == '\\' {
			return "", false
		}
		s.i++
	}
	return "", false
}
