package offline

import (
	"path/filepath"
	"testing"

	"go.uber.org/zap/zaptest"
)

// TestLRUEvictsByEntries: past its entry bound the cache drops the least recently used entry,
// and a get makes an entry the most recently used.
func TestLRUEvictsByEntries(t *testing.T) {
	c := newLRU(2, 1<<20)
	c.put("a", 1, 10)
	c.put("b", 2, 10)
	if _, ok := c.get("a"); !ok { // a is now more recent than b
		t.Fatal("a missing")
	}
	c.put("c", 3, 10)
	if _, ok := c.get("b"); ok {
		t.Error("b, the least recently used, was kept")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := c.get(k); !ok {
			t.Errorf("%s was evicted", k)
		}
	}
	if c.len() != 2 || c.evictions != 1 || c.bytes != 20 {
		t.Errorf("len %d, evictions %d, bytes %d: want 2, 1, 20", c.len(), c.evictions, c.bytes)
	}
}

// TestLRUEvictsByBytes: past its byte bound the cache drops the least recently used entries
// until it holds; a value larger than the bound alone is not kept; replacing a key counts its
// new size only.
func TestLRUEvictsByBytes(t *testing.T) {
	c := newLRU(100, 100)
	c.put("a", 1, 40)
	c.put("b", 2, 40)
	c.put("a", 3, 30) // replaced: 70 bytes
	if v, _ := c.get("a"); v != 3 || c.bytes != 70 {
		t.Fatalf("a = %v, bytes %d", v, c.bytes)
	}
	c.put("c", 4, 50) // 120 > 100: b (least recently used) goes
	if _, ok := c.get("b"); ok || c.bytes != 80 {
		t.Errorf("b kept or bytes %d (want 80)", c.bytes)
	}
	c.put("huge", 5, 101)
	if _, ok := c.get("huge"); ok || c.len() != 2 {
		t.Errorf("a value over the bound was kept (len %d)", c.len())
	}
}

// TestOriginalsCacheIsBounded: an agent whose cache holds one entry explores a method's
// original again once another method's took its place, and not while it stays.
func TestOriginalsCacheIsBounded(t *testing.T) {
	proj, file := calculator(t)
	a, err := New(proj.Pool, Options{CacheDir: filepath.Join(t.TempDir(), "cache"), Logger: zaptest.NewLogger(t), CacheEntries: 1})
	if err != nil {
		t.Fatal(err)
	}
	clamp, shipping := subject(t, proj, file, "clamp"), subject(t, proj, file, "shipping")
	runs := func() int64 { return a.runs.Load() }
	ctx := testCtx(t)
	if _, err := a.originalFor(ctx, clamp, nil); err != nil {
		t.Fatal(err)
	}
	before := runs()
	if _, err := a.originalFor(ctx, clamp, nil); err != nil || runs() != before {
		t.Fatalf("clamp explored again while cached (err %v)", err)
	}
	if _, err := a.originalFor(ctx, shipping, nil); err != nil {
		t.Fatal(err)
	}
	before = runs()
	if _, err := a.originalFor(ctx, clamp, nil); err != nil || runs() == before {
		t.Fatalf("clamp not explored again after its eviction (err %v)", err)
	}
	if a.cache.len() != 1 || a.cache.evictions != 2 {
		t.Errorf("cache len %d, evictions %d: want 1, 2", a.cache.len(), a.cache.evictions)
	}
}
