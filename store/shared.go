package store

// What another implementation of the storage contract (the PostgreSQL store,
// store/postgres) shares with this one, so that the rules stay in one place
// until they move to the match domain (issue 11).

// Valid reports whether s is one of the statuses a game can have.
func (s Status) Valid() bool { return s.valid() }

// Decided reports whether a game ending with s has a winner and a loser.
func (s Status) Decided() bool { return s.decided() }

// EloDelta is what the winner of a rated game gains and the loser loses,
// given their ratings before it.
func EloDelta(winner, loser int) int { return eloDelta(winner, loser) }

// Creation is what a list of CreateOptions asks CreateGame to do, spelled
// out so that another implementation of the storage contract (the
// PostgreSQL store) can honour the options the product passes.
type Creation struct {
	// InteractionID and Render are Respond's arguments (Render nil without
	// Respond).
	InteractionID string
	Render        func(*Game) ([]byte, error)
	// FirstTurn is FirstTurn's Change, or nil.
	FirstTurn *Change
}

// ReadCreateOptions returns what opts ask for.
func ReadCreateOptions(opts ...CreateOption) Creation {
	var o createOptions
	for _, opt := range opts {
		opt(&o)
	}
	return Creation{InteractionID: o.interactionID, Render: o.render, FirstTurn: o.turn}
}
