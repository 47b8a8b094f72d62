package jobs

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func spawner(t *testing.T) (Spawn, *sync.WaitGroup) {
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	return func(_ string, fn func(context.Context)) bool {
		wg.Add(1)
		go func() { defer wg.Done(); fn(context.Background()) }()
		return true
	}, &wg
}

func TestReplaceLimitAndOrder(t *testing.T) {
	spawn, _ := spawner(t)
	m := NewManager(1, spawn)
	release := make(chan struct{})
	started := make(chan string, 10)
	run := func(j *Job) {
		started <- j.ID
		select {
		case <-release:
		case <-j.Context().Done():
		}
	}
	a := m.Start(Spec{Key: "k1", Kind: "x"}, nil, run)
	if got := <-started; got != a.ID {
		t.Fatalf("started %s, want %s", got, a.ID)
	}
	b := m.Start(Spec{Key: "k2", Kind: "x"}, nil, run) // waits: max 1
	c := m.Start(Spec{Key: "k3", Kind: "x"}, nil, run)
	// A new job on k1 replaces a: a ends with ErrReplaced, b (first in line) runs next.
	a2 := m.Start(Spec{Key: "k1", Kind: "x"}, nil, run)
	<-a.Done()
	if cause := context.Cause(a.Context()); !errors.Is(cause, ErrReplaced) {
		t.Fatalf("cause %v", cause)
	}
	if got := <-started; got != b.ID {
		t.Fatalf("started %s, want %s (arrival order)", got, b.ID)
	}
	if !m.Cancel(c.ID) || m.Cancel(c.ID) {
		t.Fatal("Cancel of a waiting job: want true once, then false")
	}
	<-c.Done()
	// A cancelled waiter runs only to report its end, with its context done, before Done
	// closes: its run has told started by now (a select against a ready timer checked this
	// about half the time).
	select {
	case id := <-started:
		if id != c.ID {
			t.Fatalf("%s started while b runs", id)
		}
		if c.Context().Err() == nil {
			t.Fatal("c runs with a live context")
		}
	default:
		t.Fatal("the cancelled waiter c did not run to report its end")
	}
	close(release)
	<-b.Done()
	<-a2.Done()
	if m.Get(a2.ID) != nil || m.ByKey("k1") != nil {
		t.Fatal("ended jobs are still registered")
	}
}

// TestOneJobPerKey is the policy of one method's jobs: Queue jobs wait for the running one, in
// arrival order, and a newer one of their Slot replaces a waiting one; a Replace job cancels
// every job of the key and runs only once the running one has returned (a cancelled job may
// take a while to wind down); a job of another key passes the waiting ones. No two jobs of a
// key ever run at once.
func TestOneJobPerKey(t *testing.T) {
	spawn, _ := spawner(t)
	m := NewManager(4, spawn)
	var (
		mu      sync.Mutex
		gates   = map[string]chan struct{}{}
		active  = map[string]int{}
		overlap []string
	)
	// gate(id) holds job id's run until release; on a failure the cleanup lets every job go,
	// so that the spawner's wait ends (cleanups run last first).
	gate := func(id string) chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		if gates[id] == nil {
			gates[id] = make(chan struct{})
		}
		return gates[id]
	}
	release := func(j *Job) { close(gate(j.ID)) }
	t.Cleanup(func() {
		for _, id := range []string{"1", "2", "3", "4", "5", "6", "7"} {
			select {
			case <-gate(id):
			default:
				close(gate(id))
			}
		}
	})
	started := make(chan string, 20)
	run := func(j *Job) {
		if j.Context().Err() != nil {
			return // cancelled before it ran: it only reports its end
		}
		mu.Lock()
		active[j.Key]++
		if active[j.Key] > 1 {
			overlap = append(overlap, j.ID)
		}
		mu.Unlock()
		started <- j.ID
		<-gate(j.ID) // winds down only when released, cancelled or not
		mu.Lock()
		active[j.Key]--
		mu.Unlock()
	}
	next := func(want *Job) {
		t.Helper()
		select {
		case id := <-started:
			if id != want.ID {
				t.Fatalf("job %s started, want %s (%s)", id, want.ID, want.Kind)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("job %s (%s) never started", want.ID, want.Kind)
		}
	}
	idle := func(jobs ...*Job) {
		t.Helper()
		time.Sleep(20 * time.Millisecond) // time for a wrong start to happen
		for _, j := range jobs {
			if j.started.Load() {
				t.Fatalf("job %s (%s) runs beside its key's running job", j.ID, j.Kind)
			}
		}
	}
	replaced := func(j *Job) {
		t.Helper()
		<-j.Context().Done()
		if cause := context.Cause(j.Context()); !errors.Is(cause, ErrReplaced) {
			t.Fatalf("job %s (%s) ended with %v, want ErrReplaced", j.ID, j.Kind, cause)
		}
	}

	gen := m.Start(Spec{Key: "m", Kind: "generate", Policy: Replace}, nil, run)
	next(gen)
	save1 := m.Start(Spec{Key: "m", Kind: "onSave", Policy: Queue, Slot: "onsave"}, nil, run)
	kill := m.Start(Spec{Key: "m", Kind: "kill", Policy: Queue, Slot: "kill\x00m1"}, nil, run)
	other := m.Start(Spec{Key: "other", Kind: "generate", Policy: Replace}, nil, run)
	next(other) // another method's job passes the waiting ones
	save2 := m.Start(Spec{Key: "m", Kind: "onSave", Policy: Queue, Slot: "onsave"}, nil, run)
	replaced(save1)
	idle(kill, save2)
	if gen.Context().Err() != nil || kill.Context().Err() != nil {
		t.Fatal("a queued job cancelled the running one or the kill")
	}

	release(gen)
	next(kill) // arrival order: the kill came before the second save
	idle(save2)
	release(kill)
	next(save2)

	// A new Generate cancels the running on-save round and the waiting kill, and waits for the
	// round to return.
	kill2 := m.Start(Spec{Key: "m", Kind: "kill", Policy: Queue, Slot: "kill\x00m2"}, nil, run)
	gen2 := m.Start(Spec{Key: "m", Kind: "generate", Policy: Replace}, nil, run)
	replaced(save2)
	replaced(kill2)
	idle(gen2)
	release(save2)
	next(gen2)
	release(gen2)
	release(other)
	for _, j := range []*Job{gen, save1, kill, other, save2, kill2, gen2} {
		<-j.Done()
	}
	if len(overlap) > 0 {
		t.Fatalf("jobs %v ran beside another job of their key", overlap)
	}
	if jobs := m.ByKey("m"); len(jobs) != 0 {
		t.Fatalf("ended jobs are still registered: %v", jobs)
	}
}
