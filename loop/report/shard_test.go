package report

import (
	"fmt"
	"testing"
)

func TestMethodKeyKeepsNameAndParameterTypes(t *testing.T) {
	cases := []struct{ sig, want string }{
		{"public static int clamp(int value, int lo, int hi)", "clamp(int,int,int)"},
		{"public PriceCalculator(int taxPercent)", "PriceCalculator(int)"},
		{"public int maxItem()", "maxItem()"},
		{"int size( )", "size()"},
		{"public static <T extends Comparable<T>> T max(java.util.List<? extends T> xs, Comparator<? super T> c)",
			"max(java.util.List<? extends T>,Comparator<? super T>)"},
		{"void put(final Map<String, Integer> m, String... keys)", "put(Map<String,Integer>,String...)"},
		{"void old(int xs[], char[][] grid)", "old(int[],char[][])"},
		{`void named(@Named("a, b (c)") final String s, @Nonnull int[] xs)`, "named(String,int[])"},
		{"void receiver(Outer this, int x)", "receiver(int)"},
		{"public void run() throws IOException, InterruptedException", "run()"},
		{"not a signature", "not a signature"},
	}
	for _, c := range cases {
		if got := MethodKey("org.acme.A$B", c.sig); got != "org.acme.A$B#"+c.want {
			t.Errorf("MethodKey(%q) = %q, want %q", c.sig, got, "org.acme.A$B#"+c.want)
		}
	}
}

func TestMethodKeyIgnoresUnrelatedEdits(t *testing.T) {
	base := MethodKey("org.acme.P", "public static int clamp(int value, int lo, int hi)")
	for _, edited := range []string{
		"static int clamp(int v, int low, int high)",                // parameter names, modifiers
		"public static long clamp(final int value, int lo, int hi)", // return type, final
		"public  static int clamp( int value ,int lo,  int hi )",    // spacing
	} {
		if got := MethodKey("org.acme.P", edited); got != base {
			t.Errorf("%q: key %q, want %q", edited, got, base)
		}
	}
	// What identifies another method changes the key.
	for _, other := range []string{"int clamp(long value, int lo, int hi)", "int clip(int value, int lo, int hi)"} {
		if MethodKey("org.acme.P", other) == base {
			t.Errorf("%q has the same key as clamp(int,int,int)", other)
		}
	}
	if MethodKey("org.acme.Q", "int clamp(int v, int lo, int hi)") == base {
		t.Error("another class, same key")
	}
}

func keys(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = MethodKey(fmt.Sprintf("org.acme.C%d", i/10), fmt.Sprintf("int m%d(int a)", i))
	}
	return out
}

func TestShardsPartitionTheMethodSet(t *testing.T) {
	all := keys(200)
	for _, n := range []int{1, 2, 3, 7} {
		seen := map[string]int{}
		var hash string
		for i := 1; i <= n; i++ {
			part, sh, err := SelectShard(all, func(k string) string { return k }, i, n)
			if err != nil {
				t.Fatal(err)
			}
			if sh.Index != i || sh.Count != n || (hash != "" && sh.MethodSetHash != hash) {
				t.Fatalf("shard %+v (hash before %s)", sh, hash)
			}
			hash = sh.MethodSetHash
			if n > 1 && (len(part) == 0 || len(part) == len(all)) {
				t.Fatalf("shard %d/%d holds %d of %d methods", i, n, len(part), len(all))
			}
			for _, k := range part {
				if prev, ok := seen[k]; ok {
					t.Fatalf("%s in shards %d and %d", k, prev, i)
				}
				seen[k] = i
			}
		}
		if len(seen) != len(all) {
			t.Fatalf("%d shards hold %d of %d methods", n, len(seen), len(all))
		}
	}
}

func TestShardOfIsStableUnderUnrelatedChanges(t *testing.T) {
	all := keys(100)
	before := map[string]int{}
	for _, k := range all {
		before[k] = ShardOf(k, 4)
	}
	// Add 50 methods and remove 30: no remaining method moves.
	changed := append(keys(150)[100:], all[30:]...)
	for _, k := range changed {
		if b, ok := before[k]; ok && ShardOf(k, 4) != b {
			t.Fatalf("%s moved from shard %d", k, b)
		}
	}
	if MethodSetHash(changed) == MethodSetHash(all) {
		t.Fatal("another method set, same hash")
	}
	// The set's hash ignores order and repeats.
	rev := append([]string{all[5]}, all...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	if MethodSetHash(rev) != MethodSetHash(all) {
		t.Fatal("hash depends on order or repeats")
	}
	// A known value, so that a change of the hash (which would move methods between shards of
	// runs made by different versions) is a deliberate one.
	if got := ShardOf("org.acme.PriceCalculator#clamp(int,int,int)", 4); got != 3 {
		t.Fatalf("clamp's shard of 4 changed: %d", got)
	}
	if got := MethodSetHash([]string{"a", "b"}); got != "911169ddaaf146af" {
		t.Fatalf("MethodSetHash changed: %s", got)
	}
}

func TestParseShard(t *testing.T) {
	for _, ok := range []struct {
		s    string
		i, n int
	}{{"1/1", 1, 1}, {"2/4", 2, 4}, {" 3 / 3 ", 3, 3}} {
		i, n, err := ParseShard(ok.s)
		if err != nil || i != ok.i || n != ok.n {
			t.Errorf("ParseShard(%q) = %d, %d, %v", ok.s, i, n, err)
		}
	}
	for _, bad := range []string{"", "2", "0/3", "4/3", "1/0", "-1/2", "a/b", "1/2/3"} {
		if _, _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q): no error", bad)
		}
	}
	if _, _, err := SelectShard([]string{"a"}, func(s string) string { return s }, 3, 2); err == nil {
		t.Error("SelectShard 3/2: no error")
	}
}

// The hash spreads methods about evenly over many methods (few methods can land unevenly:
// stability wins over balance).
func TestShardsAreRoughlyEvenOverManyMethods(t *testing.T) {
	all := keys(4000)
	for _, n := range []int{2, 3, 4, 8} {
		count := make([]int, n+1)
		for _, k := range all {
			count[ShardOf(k, n)]++
		}
		for i := 1; i <= n; i++ {
			if want := len(all) / n; count[i] < want*8/10 || count[i] > want*12/10 {
				t.Errorf("shard %d/%d holds %d of %d methods", i, n, count[i], len(all))
			}
		}
	}
}
