package clang

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file defines the cache's bound and its pruning. The cache may hold
// $TINY_CACHE_MAX bytes of objects and checksums (256 MiB by default). The
// first compile of a process into a cache directory is followed by one
// pruning pass, which removes temporary files older than tmpMaxAge (left by
// crashed compiles) and then evicts the least recently used objects until
// the bound holds. An object's modification time is its last use: a compile
// writes it and the first cache hit of each process touches it. Nothing is
// pruned on a cache hit or by Available, so start-up costs nothing.

const (
	// cacheMaxEnv names the environment variable that bounds the cache.
	cacheMaxEnv = "TINY_CACHE_MAX"
	// defaultCacheMax is the bound when cacheMaxEnv is unset or empty.
	defaultCacheMax = 256 << 20
	// tmpMaxAge is the age past which a temporary file, or a checksum
	// without its object, is taken to be left by a crash: no compile takes
	// this long, so no live process is still writing it.
	tmpMaxAge = 10 * time.Minute
)

// cacheMax returns the cache's bound in bytes, from $TINY_CACHE_MAX (see
// parseSize); 0 means no bound.
func cacheMax() (int64, error) {
	n, err := parseSize(os.Getenv(cacheMaxEnv))
	if err != nil {
		return 0, fmt.Errorf("clang: %s=%q: want a size in bytes such as 268435456, 64M or 1G, or 0 for no bound", cacheMaxEnv, os.Getenv(cacheMaxEnv))
	}
	return n, nil
}

// parseSize parses a cache bound: a decimal number of bytes, optionally
// followed by K, M or G (binary multiples, either case). Spaces around it are
// ignored, and an empty string means defaultCacheMax.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return defaultCacheMax, nil
	}
	mult := int64(1)
	switch s[len(s)-1] {
	case 'k', 'K':
		mult = 1 << 10
	case 'm', 'M':
		mult = 1 << 20
	case 'g', 'G':
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("size %s out of range", s)
	}
	return n * mult, nil
}

// The names the cache writes: objects (objectPath), their checksums, and the
// temporary files of objectTemp and writeAtomic (os.CreateTemp puts digits
// for the "*"). Pruning touches nothing else, so a CacheDir shared with other
// files loses none of them.
var (
	objectName = regexp.MustCompile(`^[0-9a-f]{40}\.so$`)
	sumName    = regexp.MustCompile(`^[0-9a-f]{40}\.so\.sum$`)
	tmpName    = regexp.MustCompile(`^[0-9a-f]{40}\.so(\.sum)?\.[0-9]+(-[0-9]+)?\.tmp$`)
)

// openCache returns the cache directory for Compile (see cacheDir). It fails
// if $TINY_CACHE_MAX is not a size, so that a mistyped bound is reported on
// every compile rather than quietly replaced. Available does not check it:
// a bad bound does not make the default device fall back to CPU.
func openCache(dir string) (string, error) {
	if _, err := cacheMax(); err != nil {
		return "", err
	}
	return cacheDir(dir)
}

// pruned holds the cache directories this process has pruned.
var pruned sync.Map

// pruneOnce prunes dir to the bound of $TINY_CACHE_MAX the first time it is
// called for dir in this process. Compile calls it after the compiler ran.
// Failures are ignored: an unpruned cache still works.
func pruneOnce(dir string) {
	if _, done := pruned.LoadOrStore(dir, true); done {
		return
	}
	if limit, err := cacheMax(); err == nil { // else openCache has reported it
		prune(dir, limit, time.Now())
	}
}

// entry is one cached object with its checksum.
type entry struct {
	obj   string    // the object's path
	size  int64     // the bytes of the object and its checksum
	mtime time.Time // the object's modification time: its last use
}

// prune removes the temporary files and lone checksums in dir that are older
// than tmpMaxAge at now, then removes objects with their checksums, least
// recently used first, until at most limit bytes remain (any number if limit
// is 0). It returns the bytes that remain.
//
// Other processes may compile, load and prune in dir meanwhile. An object
// used since it was listed is kept. A load that finds its object gone
// compiles it again (see buildFile), and at worst a checksum removed next to
// a fresh object costs one more compile.
func prune(dir string, limit int64, now time.Time) (int64, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("clang: pruning the cache: %w", err)
	}
	ents := map[string]*entry{}
	sums := map[string]os.FileInfo{}
	for _, de := range des {
		name := de.Name()
		info, err := de.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue // removed since the listing, or not ours
		}
		path := filepath.Join(dir, name)
		switch {
		case tmpName.MatchString(name):
			if now.Sub(info.ModTime()) > tmpMaxAge {
				os.Remove(path)
			}
		case sumName.MatchString(name):
			sums[strings.TrimSuffix(path, ".sum")] = info
		case objectName.MatchString(name):
			ents[path] = &entry{obj: path, size: info.Size(), mtime: info.ModTime()}
		}
	}
	for obj, info := range sums {
		if e, ok := ents[obj]; ok {
			e.size += info.Size()
		} else if now.Sub(info.ModTime()) > tmpMaxAge {
			// A compile writes the checksum just before renaming its
			// object in, so only an old lone checksum is left over.
			os.Remove(obj + ".sum")
		}
	}
	return evict(ents, limit), nil
}

// evict removes entries, least recently used first, until their total size
// is at most limit (no bound if limit is 0), and returns the total that remains.
func evict(ents map[string]*entry, limit int64) int64 {
	var total int64
	lru := make([]*entry, 0, len(ents))
	for _, e := range ents {
		total += e.size
		lru = append(lru, e)
	}
	slices.SortFunc(lru, func(a, b *entry) int {
		return cmp.Or(a.mtime.Compare(b.mtime), strings.Compare(a.obj, b.obj))
	})
	for _, e := range lru {
		if limit == 0 || total <= limit {
			break
		}
		if st, err := os.Stat(e.obj); err == nil && st.ModTime().After(e.mtime) {
			continue // used since the listing
		}
		os.Remove(e.obj)
		os.Remove(e.obj + ".sum")
		total -= e.size
	}
	return total
}

// touch marks path as used now, for the least-recently-used order. It runs
// on a cache hit, which happens at most once per object and process (build
// remembers what it loaded). A failure only makes the object look older.
func touch(path string) {
	os.Chtimes(path, time.Time{}, time.Now())
}
