package javatext

import "testing"

func TestSkipNonCode(t *testing.T) {
	text := `a // c
"s\"t" 'x' /* b */ """
tb""" z`
	for start, want := range map[int]int{0: 0, 2: 6, 7: 13, 14: 17, 18: 25, 26: 35, 36: 36} {
		if got := SkipNonCode(text, start); got != want {
			t.Errorf("SkipNonCode at %d (%q) = %d, want %d", start, text[start:], got, want)
		}
	}
	// Unclosed: a string to its line's end, a comment to the text's end.
	if got := SkipNonCode("\"abc\nd", 0); got != 5 {
		t.Errorf("unclosed string: %d", got)
	}
	if got := SkipNonCode("/* abc", 0); got != 6 {
		t.Errorf("unclosed comment: %d", got)
	}
}
