package engine

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// moveJSON is the wire shape of a Move (the analyze --json shape):
//
//	{"heap":1,"take":2}                  Take
//	{"heaps":[0,1],"take":3}             Diagonal
//	{"takes":[2,0,1]}                    Multi
//	{"heap":1,"split":[2,3]}             Split
//	{"heap":1,"take":1,"leave":[3,4]}    Knock
type moveJSON struct {
	Heap  *int      `json:"heap,omitempty"`
	Heaps []int     `json:"heaps,omitempty"`
	Take  *int64    `json:"take,omitempty"`
	Takes []int64   `json:"takes,omitempty"`
	Split *[2]int64 `json:"split,omitempty"`
	Leave *[2]int64 `json:"leave,omitempty"`
}

// MarshalJSON writes m in the shape of its kind (see the package notation
// docs): the bytes json.Marshal wrote from moveJSON, written directly, as
// every move the store saves is (TestEncodeEqualsJSON).
func (m Move) MarshalJSON() ([]byte, error) {
	return m.AppendJSON(make([]byte, 0, 32))
}

// AppendJSON appends m's JSON (MarshalJSON's bytes) to b.
func (m Move) AppendJSON(b []byte) ([]byte, error) {
	switch m.Kind {
	case Take:
		b = strconv.AppendInt(append(b, `{"heap":`...), int64(m.Heap), 10)
		b = strconv.AppendInt(append(b, `,"take":`...), m.Take, 10)
	case Diagonal:
		b = strconv.AppendInt(append(b, `{"heaps":[0,1],"take":`...), m.Take, 10)
	case Multi:
		// An empty list keeps its key (omitempty would drop it), so the
		// kind stays recognisable.
		b = appendInts(append(b, `{"takes":`...), m.Takes)
	case Split:
		b = strconv.AppendInt(append(b, `{"heap":`...), int64(m.Heap), 10)
		b = appendInts(append(b, `,"split":`...), m.Parts[:])
	case Knock:
		b = strconv.AppendInt(append(b, `{"heap":`...), int64(m.Heap), 10)
		b = strconv.AppendInt(append(b, `,"take":`...), m.Take, 10)
		b = appendInts(append(b, `,"leave":`...), m.Parts[:])
	default:
		return nil, invalidf("move of unknown kind %d", m.Kind)
	}
	return append(b, '}'), nil
}

// AppendJSON appends p's JSON to b: json.Marshal's bytes ({"heaps":[3,4,5]},
// {"heaps":[8],"limit":3}, {"heaps":null} for no heaps), written directly.
// Position has no MarshalJSON: json.Marshal's reflection over the struct is
// quicker than calling one and then checking its output.
func (p Position) AppendJSON(b []byte) []byte {
	b = append(b, `{"heaps":`...)
	if p.Heaps == nil {
		b = append(b, "null"...)
	} else {
		b = appendInts(b, p.Heaps)
	}
	if p.Limit != 0 {
		b = strconv.AppendInt(append(b, `,"limit":`...), p.Limit, 10)
	}
	return append(b, '}')
}

// appendInts appends the list xs ([] when empty).
func appendInts(b []byte, xs []int64) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, x, 10)
	}
	return append(b, ']')
}

// UnmarshalJSON reads any of the shapes MarshalJSON writes, telling the kind
// by its fields: takes → Multi, heaps → Diagonal, split → Split, leave →
// Knock, else Take. Errors wrap ErrInvalid.
func (m *Move) UnmarshalJSON(data []byte) error {
	var j moveJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return invalidf("not a move: %v", err)
	}
	var out Move
	if j.Heap != nil {
		out.Heap = *j.Heap
	}
	if j.Take != nil {
		out.Take = *j.Take
	}
	kinds := 0
	for _, present := range []bool{j.Takes != nil, j.Heaps != nil, j.Split != nil, j.Leave != nil} {
		if present {
			kinds++
		}
	}
	if kinds > 1 {
		return invalidf("not a move: takes, heaps, split and leave do not go together")
	}
	switch {
	case j.Takes != nil:
		if j.Heap != nil || j.Take != nil {
			return invalidf("not a move: takes lists every heap's take; drop heap and take")
		}
		out.Kind, out.Takes = Multi, j.Takes
	case j.Heaps != nil:
		if len(j.Heaps) != 2 || j.Heaps[0] != 0 || j.Heaps[1] != 1 || j.Take == nil {
			return invalidf(`not a move: a diagonal move is {"heaps":[0,1],"take":N}`)
		}
		out.Kind = Diagonal
		out.Heap = 0
	case j.Split != nil:
		if j.Heap == nil || j.Take != nil {
			return invalidf(`not a move: a split is {"heap":I,"split":[A,B]}`)
		}
		out.Kind, out.Parts = Split, *j.Split
	case j.Leave != nil:
		if j.Heap == nil || j.Take == nil {
			return invalidf(`not a move: a knock is {"heap":I,"take":T,"leave":[A,B]}`)
		}
		out.Kind, out.Parts = Knock, *j.Leave
	default:
		if j.Heap == nil || j.Take == nil {
			return invalidf(`not a move: a take is {"heap":I,"take":N}`)
		}
		out.Kind = Take
	}
	*m = out
	return nil
}
