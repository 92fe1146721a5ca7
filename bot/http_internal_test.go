package bot

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// TestReadBody: a body is read whole whatever its Content-Length claims
// (none, the truth, less, more) and however the reader splits it, into the
// buffer given when it fits.
func TestReadBody(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 2100, 70000} {
		want := bytes.Repeat([]byte("x"), n)
		for _, size := range []int64{-1, int64(n), int64(n / 2), int64(n + 10), 1 << 20} {
			for _, one := range []bool{false, true} {
				var rd io.Reader = bytes.NewReader(want)
				if one {
					rd = iotest.OneByteReader(rd)
				}
				got, err := readBody(rd, make([]byte, 0, 4096)[:0], size)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%d bytes, size %d, one byte at a time %v: %d bytes, %v", n, size, one, len(got), err)
				}
			}
		}
	}
	boom := errors.New("boom")
	if _, err := readBody(iotest.ErrReader(boom), nil, -1); !errors.Is(err, boom) {
		t.Errorf("a failing reader: %v", err)
	}
	buf := make([]byte, 0, 4096)
	if got, _ := readBody(bytes.NewReader([]byte("abc")), buf, 3); &got[0] != &buf[:1][0] {
		t.Error("a body that fits was not read into the buffer given")
	}
}

// BenchmarkReadBody is reading a board click's body (2.1 KB, its
// Content-Length known) as the endpoint did (io.ReadAll) and does (a
// pooled buffer, sized from the length).
func BenchmarkReadBody(b *testing.B) {
	body := []byte(boardClick)
	b.Run("ReadAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if got, err := io.ReadAll(bytes.NewReader(body)); err != nil || len(got) != len(body) {
				b.Fatal(len(got), err)
			}
		}
	})
	b.Run("pooled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf := bodies.Get().(*[]byte)
			got, err := readBody(bytes.NewReader(body), (*buf)[:0], int64(len(body)))
			if err != nil || len(got) != len(body) {
				b.Fatal(len(got), err)
			}
			*buf = got
			bodies.Put(buf)
		}
	})
}
