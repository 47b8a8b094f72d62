package mutants

import "testing"

func TestParseIntLiteral(t *testing.T) {
	for _, tc := range []struct {
		in   string
		v    uint64
		long bool
		ok   bool
	}{
		{"0", 0, false, true},
		{"1_000", 1000, false, true},
		{"0x7fffffff", 1<<31 - 1, false, true},
		{"0XFFL", 255, true, true},
		{"0b101", 5, false, true},
		{"017", 15, false, true},
		{"42l", 42, true, true},
		{"0xFFFFFFFFFFFFFFFFL", 1<<64 - 1, true, true},
		{"08", 0, false, false},
		{"1.5", 0, false, false},
	} {
		v, long, ok := ParseIntLiteral(tc.in)
		if ok != tc.ok || ok && (v != tc.v || long != tc.long) {
			t.Errorf("ParseIntLiteral(%q) = %d, %v, %v; want %d, %v, %v", tc.in, v, long, ok, tc.v, tc.long, tc.ok)
		}
	}
}

func TestParseFloatLiteral(t *testing.T) {
	for _, tc := range []struct {
		in string
		v  float64
		ok bool
	}{
		{"0.0", 0, true}, {"1_000.5", 1000.5, true}, {"2.5f", 2.5, true}, {"1e3d", 1000, true}, {"0x1.8p1", 3, true}, {"1.2.3", 0, false},
	} {
		v, ok := ParseFloatLiteral(tc.in)
		if ok != tc.ok || ok && v != tc.v {
			t.Errorf("ParseFloatLiteral(%q) = %v, %v; want %v, %v", tc.in, v, ok, tc.v, tc.ok)
		}
	}
}

func TestFormatIntLiteral(t *testing.T) {
	for _, tc := range []struct {
		orig string
		v    uint64
		want string
	}{
		{"10", 11, "11"}, {"0xFFL", 256, "0x100L"}, {"0xff", 254, "0xfe"}, {"1_000L", 999, "999L"},
	} {
		if got := formatIntLiteral(tc.orig, tc.v); got != tc.want {
			t.Errorf("formatIntLiteral(%q, %d) = %q, want %q", tc.orig, tc.v, got, tc.want)
		}
	}
}
