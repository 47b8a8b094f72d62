package server

import "testing"

func TestScanBody(t *testing.T) {
	for _, tc := range []struct {
		body   string
		depth  int
		id     string
		method bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"x"}`, 1, "7", true},
		{`{"method":"x","params":{"id":1,"a":[[{"method":2}]]},"id":"a\"b"}`, 5, `"a\"b"`, true},
		{` { "id" : -1.5e3 , "result" : null } `, 1, "-1.5e3", false},
		{`{"params":{"s":"}}}]]]\\"},"id":3,"method":"m"}`, 2, "3", true},
		{`{"id":null,"method":"m"}`, 1, "", true},
		{`{"id":{"x":1}}`, 2, "", false},
		{`[{"id":1,"method":"m"}]`, 2, "", false},      // a batch: no top-level id
		{`{"jsonrpc":"2.0","id":"trunc`, 1, "", false}, // cut inside the id
		{`{"jsonrpc":"2.0","id":12`, 1, "", false},     // the number may go on
		{`{"id":12,"method":"m","params":[[[`, 4, "12", true},
		{`{"key":"id","x":5}`, 1, "", false}, // "id" as a value is not the member
	} {
		got := scanBody([]byte(tc.body))
		if got.depth != tc.depth || string(got.id) != tc.id || got.method != tc.method {
			t.Errorf("scanBody(%s) = depth %d, id %q, method %v; want %d, %q, %v", tc.body, got.depth, got.id, got.method, tc.depth, tc.id, tc.method)
		}
	}
}
