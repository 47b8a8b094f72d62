package offline

import (
	"slices"
	"testing"

	"github.com/advertest/advertest-lsp/javaparse"
)

func TestErasedParamTypes(t *testing.T) {
	src := []byte(`package p;
import java.util.*;
class V {
    public static <T extends Collection<?>> T validIndex(final T collection, final int index, final String message, final Object... values) { return collection; }
    public static <T extends CharSequence> T validIndex(final T chars, final int index) { return chars; }
    public static <T> T[] noNulls(T[] array, T... more) { return array; }
    static <K extends Comparable<? super K>, V extends java.util.Map<K, ?> & java.io.Serializable, W extends V> int f(K k, V v, W w, List<K> ks) { return 0; }
    public Map<String, Integer> plain(Map<String, Integer> m) { return m; }
}
`)
	f, err := javaparse.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"validIndex/4": {"Collection", "int", "String", "Object..."},
		"validIndex/2": {"CharSequence", "int"},
		"noNulls/2":    {"Object[]", "Object..."},
		"f/4":          {"Comparable", "Map", "Map", "List<K>"},
		"plain/1":      {"Map<String, Integer>"},
	}
	seen := 0
	for _, m := range f.Methods() {
		key := m.Name + "/" + string(rune('0'+len(m.Params)))
		w, ok := want[key]
		if !ok {
			continue
		}
		seen++
		if got := erasedParamTypes(m); !slices.Equal(got, w) {
			t.Errorf("%s: %q, want %q", key, got, w)
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of %d methods", seen, len(want))
	}
}
