package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// writebackSupported says startWriteback does something here.
const writebackSupported = true

// startWriteback asks the kernel to start writing f's dirty pages to the
// disk and returns without waiting for them: sync_file_range with
// SYNC_FILE_RANGE_WRITE, which makes nothing durable by itself (no flush of
// the disk's cache, no metadata) and so costs the writer's next fsync of
// the log nothing but the pages' share of a flush it makes anyway.
func startWriteback(f *os.File) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	if err := raw.Control(func(fd uintptr) {
		werr = unix.SyncFileRange(int(fd), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
	}); err != nil {
		return err
	}
	if werr != nil {
		return &os.PathError{Op: "sync_file_range", Path: f.Name(), Err: werr}
	}
	return nil
}
