package report

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A method's identity for sharding is its class's binary name and its signature reduced to
// name and parameter types (MethodKey). A method's shard depends on its identity and the
// shard count alone, so it stays in its shard when other methods are added, removed or edited,
// and when its own body, modifiers, return type or parameter names change. The price is
// balance: shards are as even as a hash makes them, not exactly even.

// MethodKey returns a method's identity: "org.acme.Outer$Inner#name(int,java.util.List<T>)",
// from the class's binary name and the method's signature as reports carry it (modifiers,
// return type and parameter names are dropped; parameter types are kept as written, spaces
// around punctuation removed).
func MethodKey(class, signature string) string {
	return class + "#" + signatureKey(signature)
}

// Key returns the target's MethodKey.
func (t Target) Key() string { return MethodKey(t.Class, t.Signature) }

// ShardOf returns the 1-based shard, out of count, that the method with this key belongs to.
func ShardOf(key string, count int) int {
	if count <= 1 {
		return 1
	}
	sum := sha256.Sum256([]byte(key))
	return int(binary.BigEndian.Uint64(sum[:8])%uint64(count)) + 1
}

// MethodSetHash identifies a set of methods by their keys, whatever their order and
// repetitions: 16 hex digits of the SHA-256 of the sorted, distinct keys.
func MethodSetHash(keys []string) string {
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	h := sha256.New()
	for _, k := range sorted {
		h.Write([]byte(k))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// SelectShard returns the items of shard index out of count (keeping their order) and the
// Shard to put on the shard's report; key gives an item's MethodKey. The hash covers every
// item, before slicing.
func SelectShard[T any](items []T, key func(T) string, index, count int) ([]T, Shard, error) {
	if count < 1 || index < 1 || index > count {
		return nil, Shard{}, fmt.Errorf("shard %d/%d: want 1 ≤ I ≤ N", index, count)
	}
	keys := make([]string, len(items))
	var out []T
	for i, it := range items {
		keys[i] = key(it)
		if ShardOf(keys[i], count) == index {
			out = append(out, it)
		}
	}
	return out, Shard{Index: index, Count: count, MethodSetHash: MethodSetHash(keys)}, nil
}

// ParseShard reads the --shard flag's value "I/N" (1-based, 1 ≤ I ≤ N).
func ParseShard(s string) (index, count int, err error) {
	bad := fmt.Errorf("--shard %q: want I/N with 1 ≤ I ≤ N, e.g. 2/4", s)
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return 0, 0, bad
	}
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil || count < 1 || index < 1 || index > count {
		return 0, 0, bad
	}
	return index, count, nil
}

// signatureKey reduces "public static <T> int clamp(final int value, @Nonnull List<T> xs)" to
// "clamp(int,List<T>)". A signature without a parameter list is returned with its whitespace
// collapsed.
func signatureKey(sig string) string {
	open := indexOutsideAnnotations(sig, '(')
	if open < 0 {
		return collapse(sig)
	}
	closing := matching(sig, open)
	if closing < 0 {
		return collapse(sig)
	}
	head := strings.TrimSpace(sig[:open])
	name := head
	if i := strings.LastIndexFunc(head, func(r rune) bool { return !isIdent(r) }); i >= 0 {
		name = head[i+1:]
	}
	var params []string
	for _, p := range splitTopLevel(sig[open+1 : closing]) {
		if t := paramType(p); t != "" {
			params = append(params, t)
		}
	}
	return name + "(" + strings.Join(params, ",") + ")"
}

// paramType returns the type of one formal parameter ("final int x" → "int", "String... xs" →
// "String...", "int xs[]" → "int[]"), or "" for the receiver parameter and an empty one.
func paramType(p string) string {
	p = collapse(stripAnnotations(p))
	p = strings.TrimSpace(strings.TrimPrefix(p+" ", "final "))
	if p == "" {
		return ""
	}
	dims := ""
	for strings.HasSuffix(p, "[]") {
		p = strings.TrimSpace(strings.TrimSuffix(p, "[]"))
		dims += "[]"
	}
	i := strings.LastIndexFunc(p, func(r rune) bool { return !isIdent(r) })
	if i < 0 {
		return p + dims // a type without a name: keep what there is
	}
	name, typ := p[i+1:], strings.TrimSpace(p[:i+1])
	if name == "this" || strings.HasSuffix(name, ".this") {
		return ""
	}
	return tidy(typ) + dims
}

// stripAnnotations removes "@Name" and "@Name(...)" from s.
func stripAnnotations(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '@' {
			b.WriteByte(s[i])
			continue
		}
		j := i + 1
		for j < len(s) && (isIdent(rune(s[j])) || s[j] == '.') {
			j++
		}
		k := j
		for k < len(s) && s[k] == ' ' {
			k++
		}
		if k < len(s) && s[k] == '(' {
			if end := matching(s, k); end > 0 {
				j = end + 1
			}
		}
		i = j - 1
		b.WriteByte(' ')
	}
	return b.String()
}

// indexOutsideAnnotations returns the index of the first c that is not inside an annotation's
// arguments.
func indexOutsideAnnotations(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '@':
			j := i + 1
			for j < len(s) && (isIdent(rune(s[j])) || s[j] == '.') {
				j++
			}
			if j < len(s) && s[j] == '(' {
				if end := matching(s, j); end > 0 {
					j = end + 1
				}
			}
			i = j - 1
		case c:
			return i
		}
	}
	return -1
}

// matching returns the index of the ')' that closes the '(' at open, or -1; string and char
// literals (in annotation arguments) are skipped.
func matching(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			i = skipLiteral(s, i)
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// skipLiteral returns the index of the quote that closes the literal opened at i.
func skipLiteral(s string, i int) int {
	q := s[i]
	for i++; i < len(s) && s[i] != q; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i
}

// splitTopLevel splits a parameter list at the commas outside brackets.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '[', '{':
			depth++
		case ')', '>', ']', '}':
			depth--
		case '"', '\'':
			i = skipLiteral(s, i)
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// collapse replaces each run of whitespace by one space and trims the ends.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// tidy removes the spaces next to punctuation: "Map<String, Integer>" → "Map<String,Integer>",
// "int ..." → "int...", keeping those between words ("? extends T").
func tidy(s string) string {
	s = collapse(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && i > 0 && i+1 < len(s) && (isPunct(s[i-1]) || isPunct(s[i+1])) {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isPunct(c byte) bool { return strings.IndexByte("<>,[].()&", c) >= 0 }

func isIdent(r rune) bool {
	return r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127
}
