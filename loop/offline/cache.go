package offline

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
)

// lru is a cache bounded by its number of entries and by the bytes its values hold (as their
// owner estimates them), which drops the least recently used entries first. The agent keeps
// its explorations of the original and its infection counts in one (keys start with the
// source's hash, so an edited source never meets an old answer, and a warm project's cache
// stops growing at its bounds). It is not safe for concurrent use: the agent guards it with
// its mutex.
type lru struct {
	maxEntries int
	maxBytes   int64
	bytes      int64
	order      *list.List // front: the most recently used
	byKey      map[string]*list.Element
	evictions  int
}

type lruEntry struct {
	key   string
	value any
	size  int64
}

func newLRU(maxEntries int, maxBytes int64) *lru {
	return &lru{maxEntries: maxEntries, maxBytes: maxBytes, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the key's value and marks it the most recently used.
func (c *lru) get(key string) (any, bool) {
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry).value, true
}

// put stores the value (replacing any under key) and drops the least recently used entries
// until both bounds hold. A value larger than the byte bound alone is not kept.
func (c *lru) put(key string, value any, size int64) {
	if e, ok := c.byKey[key]; ok {
		c.remove(e)
	}
	if size > c.maxBytes {
		return
	}
	c.byKey[key] = c.order.PushFront(&lruEntry{key: key, value: value, size: size})
	c.bytes += size
	for c.order.Len() > c.maxEntries || c.bytes > c.maxBytes {
		c.remove(c.order.Back())
		c.evictions++
	}
}

func (c *lru) remove(e *list.Element) {
	le := c.order.Remove(e).(*lruEntry)
	delete(c.byKey, le.key)
	c.bytes -= le.size
}

// len is the number of entries held.
func (c *lru) len() int { return c.order.Len() }

// sourceKey is the start of every cache key: the hash of the source the answer was computed on.
func sourceKey(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

// size estimates the bytes an exploration of the original holds: its records' text (the JSON
// lines they were read from, their arguments and Arrange lines) and a fixed cost per record.
func (o *original) size() int64 {
	if o == nil {
		return 0
	}
	n := int64(256)
	for _, r := range o.records {
		n += 128 + int64(len(r.Out))
		for _, ss := range [][]string{r.Args, r.Tokens, r.Setup, r.Graph, r.Imports} {
			for _, s := range ss {
				n += 16 + int64(len(s))
			}
		}
		if r.Recv != nil {
			n += int64(len(*r.Recv))
		}
	}
	return n
}
