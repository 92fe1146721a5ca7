package engine_test

import (
	"fmt"

	"nimbot/engine"
)

// Example plays seed 004's opening on 3-4-5: the engine finds the one
// winning move, explains it with the binary nim-sum table, and applies it.
func Example() {
	r, p, err := engine.ParseGame("3 4 5")
	if err != nil {
		panic(err)
	}
	h, err := r.Hint(p)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Name()+":", h.Verdict)
	for _, row := range h.Explanation.Table.Rows {
		fmt.Println(row[0], row[1], row[2])
	}
	fmt.Println(h.Explanation.Table.Total[0], h.Explanation.Table.Total[1], h.Explanation.Table.Total[2])
	fmt.Println("hint:", r.FormatMove(p, h.Move), "-", r.Describe(p, h.Move))
	p, err = r.Apply(p, h.Move)
	if err != nil {
		panic(err)
	}
	a, _ := r.Analyze(p)
	fmt.Println(engine.FormatGame(r, p), "mover wins:", a.MoverWins)
	_, err = r.Apply(p, engine.Move{Kind: engine.Take, Heap: 2, Take: 9})
	fmt.Println(err)
	// Output:
	// Nim: Winning: the nim-sum is 2, not 0, so a move can make it 0.
	// heap A 3 011
	// heap B 4 100
	// heap C 5 101
	// nim-sum 2 010
	// hint: A2 - takes 2 from A
	// 1 4 5 mover wins: false
	// heap C has 5, you asked for 9
}
