package clang

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// This file defines the cache of last resort: when the cache directory
// cannot be created or written (read-only, full, no home directory), the
// process compiles into a temporary directory of its own instead, removed
// by nobody (the system cleans its temporary directory), and says so once
// on standard error.

var fallback struct {
	sync.Mutex
	dir string
}

// fallbackDir returns this process's temporary cache directory, creating it
// and reporting why on first use.
func fallbackDir(why error) (string, error) {
	fallback.Lock()
	defer fallback.Unlock()
	if fallback.dir != "" {
		return fallback.dir, nil
	}
	dir, err := os.MkdirTemp("", "tiny-cache-")
	if err != nil {
		return "", fmt.Errorf("clang: no cache directory (%v), and no temporary one: %w", why, err)
	}
	fmt.Fprintf(os.Stderr, "tiny: compile cache unusable (%v); compiling into %s\n", why, dir)
	fallback.dir = dir
	return dir, nil
}

// writeFailure reports whether err is a failure to write a directory that
// a temporary directory may not have: no permission, a read-only file
// system, no space, no quota.
func writeFailure(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) ||
		errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
