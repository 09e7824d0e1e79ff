package opencl

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"unsafe"
)

// build returns the built program for src: from the binary cached on disk
// when there is a sound one, else from the source, whose binary it then
// caches. built reports whether the source was compiled. A failed build's
// error carries the driver's build log. cacheDir "-" skips the disk cache:
// asking pocl for a binary compiles every kernel of the program for any
// work-group size, which it otherwise does only for the sizes launched.
func (c *cl) build(src, cacheDir string) (h uintptr, built bool, err error) {
	path := ""
	if cacheDir != "-" {
		path = c.binaryPath(src, cacheDir)
	}
	if path != "" {
		if bin, ok := readBinary(path); ok {
			if h, err := c.fromBinary(bin); err == nil {
				return h, false, nil
			}
		}
	}
	var code int32
	s := cstr(src)
	sp := &s[0]
	n := uintptr(len(src))
	h = c.a.CreateProgramWithSource(c.ctx, 1, &sp, &n, &code)
	if err := clError("clCreateProgramWithSource", code); err != nil {
		return 0, false, err
	}
	if err := c.buildProgram(h); err != nil {
		c.a.ReleaseProgram(h)
		return 0, false, fmt.Errorf("%w\n--- source ---\n%s", err, src)
	}
	if path != "" {
		if bin, err := c.binary(h); err == nil {
			writeBinary(path, bin)
		}
	}
	return h, true, nil
}

// binaryPath returns where src's binary is cached under cacheDir, or ""
// when there is no cache directory.
func (c *cl) binaryPath(src, cacheDir string) string {
	dir, err := binaryDir(cacheDir)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(c.id + "\x00" + c.options + "\x00" + src))
	return filepath.Join(dir, hex.EncodeToString(sum[:20])+".bin")
}

// buildProgram runs clBuildProgram, returning the build log on failure.
func (c *cl) buildProgram(h uintptr) error {
	opts := cstr(c.options)
	code := c.a.BuildProgram(h, 1, &c.device, &opts[0], 0, 0)
	if code == clSuccess {
		return nil
	}
	log := infoString(func(size uintptr, v unsafe.Pointer, ret *uintptr) int32 {
		return c.a.GetProgramBuildInfo(h, c.device, clProgramBuildLog, size, v, ret)
	})
	return fmt.Errorf("%w: %v\n--- build log ---\n%s", errBuild, clError("clBuildProgram", code), log)
}

// fromBinary loads a program from a binary built earlier for this device.
func (c *cl) fromBinary(bin []byte) (uintptr, error) {
	var code, status int32
	n := uintptr(len(bin))
	bp := &bin[0]
	h := c.a.CreateProgramWithBinary(c.ctx, 1, &c.device, &n, &bp, &status, &code)
	if err := clError("clCreateProgramWithBinary", code); err != nil {
		return 0, err
	}
	if err := clError("clCreateProgramWithBinary status", status); err != nil {
		c.a.ReleaseProgram(h)
		return 0, err
	}
	if err := c.buildProgram(h); err != nil {
		c.a.ReleaseProgram(h)
		return 0, err
	}
	return h, nil
}

// binary returns the device binary of a built program.
func (c *cl) binary(h uintptr) ([]byte, error) {
	var size uintptr
	if err := clError("clGetProgramInfo", c.a.GetProgramInfo(h, clProgramBinarySizes, 8, unsafe.Pointer(&size), nil)); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, fmt.Errorf("the driver gives no binary")
	}
	bin := make([]byte, size)
	ptr := &bin[0]
	if err := clError("clGetProgramInfo", c.a.GetProgramInfo(h, clProgramBinaries, 8, unsafe.Pointer(&ptr), nil)); err != nil {
		return nil, err
	}
	return bin, nil
}

// binaryDir returns the directory of cached binaries: opencl/ under the
// given cache directory, else under $XDG_CACHE_HOME/tiny or ~/.cache/tiny
// (the CLANG device's cache).
func binaryDir(dir string) (string, error) {
	if dir == "" {
		if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
			dir = filepath.Join(x, "tiny")
		} else {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			dir = filepath.Join(home, ".cache", "tiny")
		}
	}
	dir = filepath.Join(dir, "opencl")
	return dir, os.MkdirAll(dir, 0o700)
}

// A cached binary is its SHA-256 followed by the binary, so that a damaged
// file is rebuilt rather than handed to the driver.
func readBinary(path string) ([]byte, bool) {
	data, err := os.ReadFile(path)
	if err != nil || len(data) <= sha256.Size {
		return nil, false
	}
	sum := sha256.Sum256(data[sha256.Size:])
	if !bytes.Equal(sum[:], data[:sha256.Size]) {
		return nil, false
	}
	return data[sha256.Size:], true
}

// writeBinary stores bin at path through a temporary file and a rename, so
// that a concurrent reader never sees half a file. A failure only costs the
// next run a build.
func writeBinary(path string, bin []byte) {
	sum := sha256.Sum256(bin)
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, err = f.Write(append(sum[:], bin...))
	if cerr := f.Close(); err == nil && cerr == nil {
		if os.Rename(f.Name(), path) == nil {
			return
		}
	}
	os.Remove(f.Name())
}
