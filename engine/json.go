package engine

import (
	"bytes"
	"encoding/json"
)

// moveJSON is the JSON shape of a Move, the one the store keeps and
// analyze --json prints:
//
//	{"heap":1,"take":2}                  Take
//	{"heaps":[0,1],"take":3}             Diagonal
//	{"takes":[2,0,1]}                    Multi
//	{"heap":1,"split":[2,3]}             Split
//	{"heap":1,"take":1,"leave":[3,4]}    Knock
//
// Takes is a pointer so that a Multi move with no takes keeps its key
// ({"takes":[]}) and its kind stays recognisable.
type moveJSON struct {
	Heap  *int      `json:"heap,omitempty"`
	Heaps []int     `json:"heaps,omitempty"`
	Take  *int64    `json:"take,omitempty"`
	Takes *[]int64  `json:"takes,omitempty"`
	Split *[2]int64 `json:"split,omitempty"`
	Leave *[2]int64 `json:"leave,omitempty"`
}

// MarshalJSON writes m in the shape of its kind (moveJSON): the Go struct
// holds every kind's fields, the JSON only those of m's kind.
func (m Move) MarshalJSON() ([]byte, error) {
	var j moveJSON
	heap, take, parts := m.Heap, m.Take, m.Parts
	switch m.Kind {
	case Take:
		j.Heap, j.Take = &heap, &take
	case Diagonal:
		j.Heaps, j.Take = []int{0, 1}, &take
	case Multi:
		takes := m.Takes
		if takes == nil {
			takes = []int64{}
		}
		j.Takes = &takes
	case Split:
		j.Heap, j.Split = &heap, &parts
	case Knock:
		j.Heap, j.Take, j.Leave = &heap, &take, &parts
	default:
		return nil, invalidf("move of unknown kind %d", m.Kind)
	}
	return json.Marshal(j)
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
		out.Kind, out.Takes = Multi, *j.Takes
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
