//go:build linux || darwin

// The write-ahead log, written in one system call per commit (walbuf.go).
//
// SQLite's unix VFS writes each log frame with two pwrite calls, its
// 24-byte header and its page. A VFS of our own, "nimbot-walbuf", wraps the
// default one: files other than a write-ahead log are the default VFS's own,
// untouched; a log's frames written one after another are gathered in
// memory and written together when SQLite syncs the log (every COMMIT, with
// synchronous=FULL), reads it, asks its size, truncates or closes it, or
// writes somewhere else in it. With FULL, SQLite syncs a commit's frames
// before it publishes them in the WAL index, so no other connection ever
// reads a frame still held here; walbuf.go uses this VFS only with FULL.

#include <stdlib.h>
#include <string.h>

#include "walbuf.h"

// walbufMax is the most a log file holds back, and so the most one write
// passes to the default VFS: its unixWrite hands pwrite at most 128 KiB
// less a byte (it masks the length with 0x1ffff, so a write of exactly
// 128 KiB would write nothing and report the disk full).
#define walbufMax (64 << 10)

typedef struct walbufFile {
	sqlite3_file base;   // base.pMethods is walbufMethods
	sqlite3_file *real;  // the default VFS's file, after this struct
	char *buf;           // walbufMax bytes; held back: [off, off+len)
	int len;
	sqlite3_int64 off;
} walbufFile;

static sqlite3_vfs *walbufDefault;
static sqlite3_vfs walbufVFS;
static sqlite3_io_methods walbufMethods;

// walbufFlush writes what f holds back.
static int walbufFlush(walbufFile *f) {
	if (f->len == 0) {
		return SQLITE_OK;
	}
	int n = f->len;
	f->len = 0;
	return f->real->pMethods->xWrite(f->real, f->buf, n, f->off);
}

static int walbufWrite(sqlite3_file *p, const void *data, int n, sqlite3_int64 off) {
	walbufFile *f = (walbufFile *)p;
	if (f->len > 0 && off == f->off + f->len && f->len + n <= walbufMax) {
		// The next bytes of the run held back.
	} else {
		int rc = walbufFlush(f);
		if (rc != SQLITE_OK) {
			return rc;
		}
		if (n > walbufMax) {
			return f->real->pMethods->xWrite(f->real, data, n, off);
		}
		f->off = off;
	}
	memcpy(f->buf + f->len, data, n);
	f->len += n;
	return SQLITE_OK;
}

static int walbufClose(sqlite3_file *p) {
	walbufFile *f = (walbufFile *)p;
	int rc = walbufFlush(f);
	int rc2 = f->real->pMethods->xClose(f->real);
	free(f->buf);
	f->buf = NULL;
	return rc != SQLITE_OK ? rc : rc2;
}

// Every other method writes what is held back first, then is the default
// VFS's.
#define FLUSHED(f)                                   \
	walbufFile *f = (walbufFile *)p;             \
	do {                                         \
		int rc = walbufFlush(f);             \
		if (rc != SQLITE_OK) {               \
			return rc;                   \
		}                                    \
	} while (0)

static int walbufRead(sqlite3_file *p, void *data, int n, sqlite3_int64 off) {
	FLUSHED(f);
	return f->real->pMethods->xRead(f->real, data, n, off);
}
static int walbufTruncate(sqlite3_file *p, sqlite3_int64 size) {
	FLUSHED(f);
	return f->real->pMethods->xTruncate(f->real, size);
}
static int walbufSync(sqlite3_file *p, int flags) {
	FLUSHED(f);
	return f->real->pMethods->xSync(f->real, flags);
}
static int walbufFileSize(sqlite3_file *p, sqlite3_int64 *size) {
	FLUSHED(f);
	return f->real->pMethods->xFileSize(f->real, size);
}
static int walbufLock(sqlite3_file *p, int lock) {
	FLUSHED(f);
	return f->real->pMethods->xLock(f->real, lock);
}
static int walbufUnlock(sqlite3_file *p, int lock) {
	FLUSHED(f);
	return f->real->pMethods->xUnlock(f->real, lock);
}
static int walbufCheckReservedLock(sqlite3_file *p, int *out) {
	FLUSHED(f);
	return f->real->pMethods->xCheckReservedLock(f->real, out);
}
static int walbufFileControl(sqlite3_file *p, int op, void *arg) {
	FLUSHED(f);
	return f->real->pMethods->xFileControl(f->real, op, arg);
}
static int walbufSectorSize(sqlite3_file *p) {
	walbufFile *f = (walbufFile *)p;
	return f->real->pMethods->xSectorSize(f->real);
}
static int walbufDeviceCharacteristics(sqlite3_file *p) {
	walbufFile *f = (walbufFile *)p;
	return f->real->pMethods->xDeviceCharacteristics(f->real);
}
// walbufOpen opens a write-ahead log as a walbufFile around the default
// VFS's file, and any other file as the default VFS's file itself.
static int walbufOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *p, int flags, int *outFlags) {
	if (!(flags & SQLITE_OPEN_WAL)) {
		return walbufDefault->xOpen(walbufDefault, name, p, flags, outFlags);
	}
	walbufFile *f = (walbufFile *)p;
	memset(f, 0, sizeof(*f));
	f->real = (sqlite3_file *)(f + 1);
	int rc = walbufDefault->xOpen(walbufDefault, name, f->real, flags, outFlags);
	if (rc != SQLITE_OK || f->real->pMethods == NULL) {
		// SQLite closes a file that failed to open only if pMethods is
		// set: the default VFS's xOpen has cleaned up after itself.
		f->base.pMethods = NULL;
		return rc;
	}
	f->buf = malloc(walbufMax);
	if (f->buf == NULL) {
		f->real->pMethods->xClose(f->real);
		f->base.pMethods = NULL;
		return SQLITE_NOMEM;
	}
	f->base.pMethods = &walbufMethods;
	return SQLITE_OK;
}

// nimbot_walbuf_register is called once per process (walbuf.go's
// walbufOnce, which also keeps its outcome).
int nimbot_walbuf_register(void) {
	sqlite3_vfs *def = sqlite3_vfs_find(NULL);
	if (def == NULL) {
		return SQLITE_ERROR;
	}
	walbufVFS = *def;
	walbufVFS.pNext = NULL;
	walbufVFS.zName = NIMBOT_WALBUF_VFS;
	walbufVFS.szOsFile = (int)sizeof(walbufFile) + def->szOsFile;
	walbufVFS.xOpen = walbufOpen;
	// Version 1: SQLite maps shared memory and pages (the later
	// versions' methods) only for a database file, never for its log.
	walbufMethods = (sqlite3_io_methods){
		.iVersion = 1,
		.xClose = walbufClose,
		.xRead = walbufRead,
		.xWrite = walbufWrite,
		.xTruncate = walbufTruncate,
		.xSync = walbufSync,
		.xFileSize = walbufFileSize,
		.xLock = walbufLock,
		.xUnlock = walbufUnlock,
		.xCheckReservedLock = walbufCheckReservedLock,
		.xFileControl = walbufFileControl,
		.xSectorSize = walbufSectorSize,
		.xDeviceCharacteristics = walbufDeviceCharacteristics,
	};
	walbufDefault = def;
	return sqlite3_vfs_register(&walbufVFS, 0);
}
