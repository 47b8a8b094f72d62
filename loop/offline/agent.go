package offline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// Options tune the search. Zero values get the defaults given on each field.
type Options struct {
	// Seed (20240601) fixes the inputs and their order for a method. It does not fix the tests:
	// an exploration stops at Budget, a wall-clock deadline, so a slower or busier machine may
	// try fewer inputs and find other differences.
	Seed      int64
	MaxInputs int // 600 inputs per exploration
	// Budget is the wall-clock time of calls per exploration (1.5s). These defaults are the
	// only ones: the explorer (Explorer.java) has none and refuses a bound it is not sent.
	Budget      time.Duration
	CallTimeout time.Duration // 500ms: a call past it counts as a timeout
	// CallMemory bounds the bytes one call may allocate, garbage included (256 MiB): a call
	// past it is stopped, as past its time.
	CallMemory int64
	// TestTimeout is the limit written into a test for a mutant that loops (1s).
	TestTimeout time.Duration
	// MaxInitialTests caps the initial suite's tests on ordinary inputs (8); up to
	// maxExtremeTests more hold extreme ones.
	MaxInitialTests int
	// Candidates is how many differing inputs KillMutant turns into tests and verifies (4).
	Candidates int
	// CacheEntries and CacheBytes bound the agent's cache of answers (the explorations of the
	// originals and the infection counts, least recently used first out): 1024 entries and
	// 64 MiB as estimated by their contents.
	CacheEntries int
	CacheBytes   int64
	// NoSeeding turns dynamic seeding off (seeds.go): no seeding pass, the inputs come from
	// the method's literals alone.
	NoSeeding bool
	// SeedBudget is the wall-clock time of the seeding pass's calls (1s).
	SeedBudget time.Duration
	// CacheDir keeps the compiled explorer ("" → os.UserCacheDir()/advertest/offline).
	CacheDir string
	// JavaHome is the JDK whose javac compiles the explorer ("" → $JAVA_HOME, else PATH).
	JavaHome string
	Logger   *zap.Logger
}

// Agent is the offline, search-based test agent T. It is safe for concurrent use.
type Agent struct {
	pool *harness.Pool
	opts Options
	log  *zap.Logger
	runs atomic.Int64
	// cacheDir holds compiled explorers by content hash.
	cacheDir string

	compileMu sync.Mutex
	classDir  string // the compiled explorer, once built

	// mu guards cache and pending: the requests of several games (goroutines) meet here.
	mu sync.Mutex
	// cache holds the explorations of the original (by source hash, method and JUnit version)
	// and what the probes saw at a mutant's site (by source hash, method and mutant,
	// infect.go), bounded (cache.go).
	cache *lru
	// pending are the explorations of the original being computed, by the same keys: a
	// second request for one waits for the first instead of exploring again.
	pending map[string]*originalEntry
}

var _ agent.TestAgent = (*Agent)(nil)

// UnsupportedError says why the search cannot drive a method: it writes no tests for it.
type UnsupportedError struct {
	Method string // "org.acme.Calc.clamp"
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("offline test agent: cannot drive %s: %s", e.Method, e.Reason)
}

// Is makes the error match agent.ErrCannotDrive, the loop's sentinel for a method a test agent
// cannot drive.
func (e *UnsupportedError) Is(target error) bool { return target == agent.ErrCannotDrive }

// New makes an agent that runs its explorations on pool.
func New(pool *harness.Pool, opts Options) (*Agent, error) {
	if opts.Seed == 0 {
		opts.Seed = 20240601
	}
	if opts.MaxInputs <= 0 {
		opts.MaxInputs = 600
	}
	if opts.Budget <= 0 {
		opts.Budget = 1500 * time.Millisecond
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 500 * time.Millisecond
	}
	if opts.CallMemory <= 0 {
		opts.CallMemory = 256 << 20
	}
	if opts.SeedBudget <= 0 {
		opts.SeedBudget = time.Second
	}
	if opts.TestTimeout <= 0 {
		opts.TestTimeout = time.Second
	}
	if opts.MaxInitialTests <= 0 {
		opts.MaxInitialTests = 8
	}
	if opts.Candidates <= 0 {
		opts.Candidates = 4
	}
	if opts.CacheEntries <= 0 {
		opts.CacheEntries = 1024
	}
	if opts.CacheBytes <= 0 {
		opts.CacheBytes = 64 << 20
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	a := &Agent{pool: pool, opts: opts, log: opts.Logger,
		cache: newLRU(opts.CacheEntries, opts.CacheBytes), pending: map[string]*originalEntry{}}
	a.cacheDir = opts.CacheDir
	if a.cacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		a.cacheDir = filepath.Join(base, "advertest", "offline")
	}
	return a, nil
}

// Close releases the agent. It holds no files of its own: its explorations write into the
// workers' scratch folders, which the harness empties after each test.
func (a *Agent) Close() error { return nil }

func methodID(s *agent.Subject) string {
	return s.Method.BinaryClassName + "." + s.Method.Name
}

// precheck reports methods the explorer cannot drive before running anything.
func precheck(s *agent.Subject) error {
	m := s.Method
	why := ""
	switch {
	case m == nil:
		return errors.New("offline: no method given")
	case slices.Contains(m.Modifiers, "private"):
		why = "the method is private: a test cannot call it (the search does not go through reflection, so its tests stay plain calls)"
	case m.BodyStartByte < 0:
		why = "the method has no body (abstract or an interface method)"
	case slices.Contains(m.Modifiers, "abstract"):
		why = "the method is abstract"
	}
	if anonymousPath(m.ClassPath) {
		why = "the method belongs to an anonymous or local class, which a test cannot name"
	}
	if why != "" {
		return &UnsupportedError{Method: methodID(s), Reason: why}
	}
	return nil
}

func (a *Agent) params(s *agent.Subject) explorerParams {
	m := s.Method
	f := s.Parsed
	if f == nil || !bytes.Equal(f.Source(), s.Source) {
		if pf, err := javaparse.Parse(s.Source); err == nil {
			f = pf
		}
	}
	var lits literals
	if f != nil {
		lits = scanLiterals(f, m.StartByte, m.EndByte)
		// the file's other char literals come after the method's own: a method often hands
		// characters to a helper that knows them (fromRoman → symbolValue('X'))
		for _, r := range scanLiterals(f, 0, len(f.Source())).chars {
			if !strings.ContainsRune(lits.chars, r) && len([]rune(lits.chars)) < 24 {
				lits.chars += string(r)
			}
		}
	}
	name := m.Name
	if m.Kind == javaparse.KindConstructor {
		name = "<init>"
	}
	types := erasedParamTypes(m)
	pkg := ""
	if s.Context != nil {
		pkg = s.Context.Package
	} else if i := strings.LastIndexByte(m.TopLevelClass, '.'); i >= 0 {
		pkg = m.TopLevelClass[:i]
	}
	return explorerParams{
		className:   m.BinaryClassName,
		methodName:  name,
		paramTypes:  types,
		lits:        lits,
		seed:        a.opts.Seed,
		maxInputs:   a.opts.MaxInputs,
		budget:      a.opts.Budget,
		perCall:     a.opts.CallTimeout,
		testPackage: pkg,
		maxTimeouts: 3,
		maxAlloc:    a.opts.CallMemory,
	}
}

func subjectPackage(s *agent.Subject) string {
	if s.Context != nil {
		return s.Context.Package
	}
	if i := strings.LastIndexByte(s.Method.TopLevelClass, '.'); i >= 0 {
		return s.Method.TopLevelClass[:i]
	}
	return ""
}

func junitOf(s *agent.Subject, pool *harness.Pool) int {
	if s.JUnit == 4 || s.JUnit == 5 {
		return s.JUnit
	}
	return pool.JUnitVersion()
}
