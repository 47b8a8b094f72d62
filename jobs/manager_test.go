package jobs

import (
	"context"
	"errors"
	"sync"
	"testing"
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
	a := m.Start("k1", "x", nil, run)
	if got := <-started; got != a.ID {
		t.Fatalf("started %s, want %s", got, a.ID)
	}
	b := m.Start("k2", "x", nil, run) // waits: max 1
	c := m.Start("k3", "x", nil, run)
	// A new job on k1 replaces a: a ends with ErrReplaced, b (first in line) runs next.
	a2 := m.Start("k1", "x", nil, run)
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
