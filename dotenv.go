package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/joho/godotenv"
)

// loadDotenv loads the settings in the file name (.env) with godotenv.Load:
// those already in the environment win, and a missing file is
// fs.ErrNotExist. Its errors never show what the file holds. godotenv
// v1.5.1's parse errors quote it (`unexpected character ... near "<the
// rest of the file>"`, `unterminated quoted value <the value>`), and .env
// holds DISCORD_TOKEN and DATABASE_URL's password; a parse error becomes a
// dotenvError, which says at which line instead.
func loadDotenv(name string) error {
	err := godotenv.Load(name)
	var pathErr *fs.PathError
	if err == nil || errors.As(err, &pathErr) {
		// Opening or reading the file failed: the error names the file
		// and the system's reason, nothing from inside it.
		return err
	}
	src, readErr := os.ReadFile(name)
	if readErr != nil {
		return readErr
	}
	return &dotenvError{name: name, line: dotenvErrorLine(src), bom: bytes.HasPrefix(src, []byte("\uFEFF"))}
}

// dotenvError is a .env file godotenv could not parse, told without its
// contents.
type dotenvError struct {
	name string
	line int  // the line of the statement godotenv stopped at; 0: unknown
	bom  bool // the file starts with a byte order mark
}

func (e *dotenvError) Error() string {
	const hidden = " (nothing from the file is shown: it may hold secrets)"
	if e.bom {
		// godotenv reads the mark as the start of a name on line 1: say
		// what to do about it rather than that line 1 looks fine.
		return fmt.Sprintf("%s starts with a byte order mark: save it as UTF-8 without one", e.name) + hidden
	}
	where := ""
	if e.line > 0 {
		where = fmt.Sprintf(" at line %d", e.line)
	}
	return fmt.Sprintf("%s could not be parsed%s: each line must be NAME=value, a # comment or blank, and a quoted value needs its closing quote",
		e.name, where) + hidden
}

// maxDotenvLines bounds the lines dotenvErrorLine reads: it parses the file
// once per line in the worst case, and a .env is a few dozen lines.
const maxDotenvLines = 2000

// dotenvErrorLine returns the line (from 1) of the statement at which
// godotenv fails to parse src, or 0 when src parses or is too long to look.
// godotenv reports no position, so the line is found by parsing the file's
// first lines: godotenv parses statement after statement, so every prefix
// of whole lines that takes in the bad statement's line fails as the file
// does, and the prefix that ends just before that line parses (every
// statement in it is whole). The bad line is therefore the one after the
// longest prefix that parses. A shorter prefix may fail too, cutting a
// quoted value that goes on over several lines, so the search runs from
// the end.
func dotenvErrorLine(src []byte) int {
	if _, err := godotenv.UnmarshalBytes(src); err == nil {
		return 0
	}
	var ends []int // the offset after each newline
	for i, c := range src {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(ends) > maxDotenvLines {
		return 0
	}
	for k := len(ends); k > 0; k-- {
		if _, err := godotenv.UnmarshalBytes(src[:ends[k-1]]); err == nil {
			return k + 1
		}
	}
	return 1
}
