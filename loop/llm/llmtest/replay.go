package llmtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
)

// Recorded is one request of a transcript and the model's reply to it, as the transcripts in
// testdata hold them (one JSON object a line).
type Recorded struct {
	N        int       `json:"n"`
	Method   string    `json:"method"`
	Kind     string    `json:"kind"`
	Messages []Message `json:"messages"`
	Reply    string    `json:"reply"`
}

// Key is what a replay matches a request by: the agent (T, M or J for the judge), the kind
// of request, the method under test and, for a kill or a judge request, the mutant's line and
// texts. Recorded requests and live ones are classified the same way, from their prompts.
type Key struct {
	Agent, Kind, Method string
	Line                int
	Original, Mutated   string
}

func (k Key) String() string {
	s := k.Agent + "." + k.Kind + " " + k.Method
	if k.Line > 0 {
		s += fmt.Sprintf(" line %d `%s` → `%s`", k.Line, k.Original, k.Mutated)
	}
	return s
}

var (
	methodRE = regexp.MustCompile("Method under test: `[^`]*?([A-Za-z_$][\\w$]*)\\(")
	mutantRE = regexp.MustCompile("original line (\\d+): `([^`\\n]*)`\\nmutated to: `([^`\\n]*)`")
)

// requestKinds tell a request's kind by a marker of its last message (M's first move by its
// user message); an agent's request that shows none is its last kind here.
var requestKinds = []struct{ agent, marker, kind string }{
	{"M", "That was not the JSON", "again"},
	{"M", "diverse mutants", "initial"},
	{"M", "", "more"},
	{"T", "does not compile or cannot run", "repair"},
	{"T", "fail on the code as it is", "expectation"},
	{"T", "surviving mutant", "kill"},
	{"T", "", "initial"},
	{"J", "", "judge"},
}

// Classify tells what a request asks from its messages.
func Classify(msgs []Message) Key {
	var k Key
	if len(msgs) == 0 {
		return k
	}
	system, user := msgs[0].Content, ""
	for _, m := range msgs {
		if m.Role == "user" {
			user = m.Content
			break
		}
	}
	last := msgs[len(msgs)-1].Content
	switch {
	case strings.Contains(system, "program semantics"):
		k.Agent = "J"
	case strings.Contains(system, "You write mutants"):
		k.Agent = "M"
	default:
		k.Agent = "T"
	}
	for _, rk := range requestKinds {
		text := last
		if rk.kind == "initial" && rk.agent == "M" {
			text = user
		}
		if rk.agent == k.Agent && strings.Contains(text, rk.marker) {
			k.Kind = rk.kind
			break
		}
	}
	if m := methodRE.FindStringSubmatch(user); m != nil {
		k.Method = m[1]
	}
	if k.Kind == "kill" || k.Kind == "judge" {
		if m := mutantRE.FindStringSubmatch(last); m != nil {
			fmt.Sscan(m[1], &k.Line)
			k.Original, k.Mutated = strings.TrimSpace(m[2]), strings.TrimSpace(m[3])
		}
	}
	return k
}

// Served is one request a replay answered.
type Served struct {
	Key Key
	// Recorded is the transcript's request number that answered it; 0 for an unrecorded
	// request, which got an empty answer.
	Recorded int
	// Prompt is the request's last message, Reply what it was answered.
	Prompt, Reply string
}

// Replay answers requests from a transcript: a request gets the reply recorded for the first
// request of the same Key not used yet, in the transcript's order, or the last one of that Key
// once all are used (order only breaks ties). A request the transcript has no Key for gets a
// valid answer that holds no test and no mutant (not an HTTP error); Unrecorded lists them.
// Its Handler may be called from several goroutines.
type Replay struct {
	mu      sync.Mutex
	entries []Recorded
	keys    []Key
	used    map[int]bool
	served  []Served
}

// LoadReplay reads a transcript (one Recorded a line).
func LoadReplay(path string) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("llmtest: reading the transcript: %w", err)
	}
	defer f.Close()
	r := &Replay{used: map[int]bool{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var rec Recorded
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("llmtest: %s: %w", path, err)
		}
		r.entries = append(r.entries, rec)
		r.keys = append(r.keys, Classify(rec.Messages))
	}
	return r, sc.Err()
}

// Entries are the transcript's requests, with their keys.
func (r *Replay) Entries() ([]Recorded, []Key) { return r.entries, r.keys }

// Handle answers a request (a Handler).
func (r *Replay) Handle(req *Request, _ int) Response {
	k := Classify(req.Messages)
	r.mu.Lock()
	defer r.mu.Unlock()
	at := -1
	for i, ek := range r.keys {
		if ek != k {
			continue
		}
		at = i
		if !r.used[i] {
			break
		}
	}
	s := Served{Key: k, Prompt: req.Last()}
	if at >= 0 {
		r.used[at] = true
		s.Recorded, s.Reply = r.entries[at].N, r.entries[at].Reply
	} else {
		s.Reply = emptyAnswer(k)
	}
	r.served = append(r.served, s)
	return Reply(s.Reply, (len(req.Prompt())+3)/4, (len(s.Reply)+3)/4)
}

// emptyAnswer is a valid answer that holds no test and no mutant.
func emptyAnswer(k Key) string {
	switch k.Agent {
	case "M":
		return "```json\n{\"mutants\": []}\n```"
	case "J":
		return "```json\n{\"equivalent\": false, \"reason\": \"no answer was recorded for this request\", \"input\": \"\"}\n```"
	}
	return "No answer was recorded for this request: no test class."
}

// Served are the requests answered so far, in order.
func (r *Replay) Served() []Served {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Served(nil), r.served...)
}

// Unrecorded are the requests answered so far that the transcript had no reply for.
func (r *Replay) Unrecorded() []Key {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Key
	for _, s := range r.served {
		if s.Recorded == 0 {
			out = append(out, s.Key)
		}
	}
	return out
}
