// Package storetest is the storage contract's test suite: one set of tests
// that every implementation of nimbot's storage (the SQLite store, the
// PostgreSQL store) must pass, so that the product behaves the same on
// either.
//
// The contract itself is match.Storage. The suite uses the contract alone,
// never an implementation's tables, so each backend's own tests keep what
// only it can check (triggers, SQLite files, connection settings).
package storetest
