//go:build linux || darwin

package store

/*
#cgo linux LDFLAGS: -Wl,--unresolved-symbols=ignore-in-object-files
#cgo darwin LDFLAGS: -Wl,-undefined,dynamic_lookup
#include "walbuf.h"
*/
import "C"

import (
	"fmt"
	"sync"
)

// walbufVFS is the VFS the writer connection opens the database with under
// synchronous=FULL (walbuf.c): its COMMITs write the log's new frames in
// one pwrite instead of two per frame. SQLite is go-sqlite3's, compiled
// into its package: the linker flags above let this package's C code call
// it, resolved when the binary is linked.
const walbufVFS = C.NIMBOT_WALBUF_VFS

// walbufOnce registers walbufVFS with SQLite, once.
var walbufOnce = sync.OnceValue(func() error {
	if rc := C.nimbot_walbuf_register(); rc != C.SQLITE_OK {
		return fmt.Errorf("store: registering SQLite's VFS %s: code %d", walbufVFS, int(rc))
	}
	return nil
})
