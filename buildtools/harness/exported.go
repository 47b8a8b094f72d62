package harness

import (
	"crypto/sha256"
	"sync"
)

// maxExported is how many exported compiles the pool keeps: the worker keeps its last four
// compiles too, and a mutant schema is the newest while its method's mutants run.
const maxExported = 4

// exportedCompiles are the last compiles made through Pool.CompileShared, with the workers that have
// their classes. A run of the same sources on a worker without them carries them, so the worker
// defines javac's bytes instead of compiling again: a mutant schema costs one compile per pool,
// not one per worker. The bytes come from a worker in the same sandbox as the one that runs
// them, so shipping them widens nothing (docs/worker-protocol.md, "Shipped classes").
type exportedCompiles struct {
	mu      sync.Mutex
	entries []*exportedCompile // oldest first
}

type exportedCompile struct {
	key     [sha256.Size]byte
	classes *wirePrecompiled
	holders map[*worker]bool
}

// sourcesKey identifies a compile by its sources in the worker's order (overrides, then extra
// tests), as the worker's own cache of compiles does.
func sourcesKey(first, then []Source) [sha256.Size]byte {
	h := sha256.New()
	for _, list := range [][]Source{first, then} {
		for _, s := range list {
			h.Write([]byte(s.ClassName))
			h.Write([]byte{0})
			h.Write([]byte(s.Text))
			h.Write([]byte{0})
		}
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// add records a compile that worker by made (and so has).
func (e *exportedCompiles) add(key [sha256.Size]byte, classes *wirePrecompiled, by *worker) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, x := range e.entries {
		if x.key == key {
			e.entries = append(e.entries[:i], e.entries[i+1:]...)
			break
		}
	}
	holders := map[*worker]bool{}
	if by != nil {
		holders[by] = true
	}
	e.entries = append(e.entries, &exportedCompile{key: key, classes: classes, holders: holders})
	if len(e.entries) > maxExported {
		e.entries = e.entries[len(e.entries)-maxExported:]
	}
}

// shipTo is the classes to send with w's run of the sources of key: nil when no exported
// compile has them or w was sent them (or made them) already. A worker that evicted them since
// compiles them again: slower, never wrong.
func (e *exportedCompiles) shipTo(key [sha256.Size]byte, w *worker) *wirePrecompiled {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, x := range e.entries {
		if x.key != key {
			continue
		}
		if x.holders[w] {
			return nil
		}
		x.holders[w] = true
		return x.classes
	}
	return nil
}
