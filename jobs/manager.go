package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// ErrReplaced is the cause of a job's cancellation when a newer job took its key.
var ErrReplaced = errors.New("replaced by a newer job on the same method")

// ErrCancelled is the cause of a job's cancellation by the user.
var ErrCancelled = errors.New("cancelled")

// Spawn runs fn on a goroutine with a background context, and reports whether it did (the
// server's Session.Go).
type Spawn func(name string, fn func(ctx context.Context)) bool

// Job is one piece of background work.
type Job struct {
	ID   string
	Key  string
	Kind string
	// slot is the Spec's Slot.
	slot string

	ctx    context.Context
	cancel context.CancelCauseFunc
	done   chan struct{}
	// started is set once the job holds a running slot.
	started atomic.Bool
}

// Context is the job's context: cancelled by Cancel, by a newer job with the same key, and
// by the end of the background context.
func (j *Job) Context() context.Context { return j.ctx }

// Done is closed when the job's function has returned.
func (j *Job) Done() <-chan struct{} { return j.done }

// Cancel cancels the job.
func (j *Job) Cancel() { j.cancel(ErrCancelled) }

// ErrEnded is the cause of a job's context's end once the job has reported its end.
var ErrEnded = errors.New("the job has ended")

// End marks the job as over before its function returns (when it has reported its end):
// Cancel then answers false.
func (j *Job) End() { j.cancel(ErrEnded) }

// Manager runs jobs.
type Manager struct {
	spawn Spawn

	mu sync.Mutex
	// max is how many jobs run at once; running how many do.
	max, running int
	// waiting are the jobs waiting for a slot, in arrival order, each with the channel that
	// Manager closes to let it run.
	waiting []waiter
	byID    map[string]*Job
	// byKey are each key's registered jobs in arrival order; busy the one of a key that runs.
	byKey  map[string][]*Job
	busy   map[string]*Job
	nextID int
}

type waiter struct {
	job *Job
	go_ chan struct{}
}

// NewManager returns a manager that runs at most max jobs at once (at least 1).
func NewManager(max int, spawn Spawn) *Manager {
	return &Manager{spawn: spawn, max: max1(max), byID: map[string]*Job{}, byKey: map[string][]*Job{}, busy: map[string]*Job{}}
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// SetMax changes how many jobs run at once; waiting jobs start if there is room.
func (m *Manager) SetMax(n int) {
	m.mu.Lock()
	m.max = max1(n)
	m.admitLocked()
	m.mu.Unlock()
}

// Policy says how a job meets the jobs already registered under its key (its method).
type Policy int

const (
	// Replace cancels every job of the key, running or waiting (cause ErrReplaced), and runs
	// once the running one has returned: a new Generate or Analyze on the method.
	Replace Policy = iota
	// Queue runs after the key's earlier jobs have ended, never beside them; an earlier job of
	// the key with the same Slot, running or waiting, is replaced (cause ErrReplaced): an
	// on-save round, a kill.
	Queue
)

// Spec names a job for the registry.
type Spec struct {
	// Key is what the job works on (a method): one job of a key runs at a time. "" is a job
	// of its own, serialised with nothing.
	Key string
	// Kind names the job's work (the progress, the logs).
	Kind   string
	Policy Policy
	// Slot, for Queue, names the work within the key that a newer job of the same Slot
	// replaces ("" replaces nothing): a new on-save round the one not yet done.
	Slot string
}

// Start registers a job and runs fn once the job may run: no other job of its key is running
// and fewer than max jobs are (see Policy for the key's earlier jobs). Jobs that cannot run yet
// wait in arrival order, and queued, when set, is called on the job's goroutine before it
// waits. fn gets the job; its context is cancelled when the job is. A job cancelled before it
// could run still has fn called, with its context done, only to report its end: fn must
// check the context before it works. Start returns nil when the manager cannot start work any
// more (the session has ended).
func (m *Manager) Start(spec Spec, queued func(*Job), fn func(*Job)) *Job {
	m.mu.Lock()
	m.nextID++
	id := fmt.Sprintf("%d", m.nextID)
	j := &Job{ID: id, Key: spec.Key, Kind: spec.Kind, slot: spec.Slot, done: make(chan struct{})}
	// The context is set before the job can be found by Cancel or replaced.
	j.ctx, j.cancel = context.WithCancelCause(context.Background())
	if spec.Key != "" {
		for _, old := range m.byKey[spec.Key] {
			if spec.Policy == Replace || spec.Slot != "" && old.slot == spec.Slot {
				old.cancel(ErrReplaced)
			}
		}
		m.byKey[spec.Key] = append(m.byKey[spec.Key], j)
	}
	m.byID[id] = j
	slot := make(chan struct{})
	m.waiting = append(m.waiting, waiter{job: j, go_: slot})
	m.mu.Unlock()

	ok := m.spawn("job "+spec.Kind+" "+id, func(bg context.Context) {
		defer close(j.done)
		defer m.finish(j)
		stop := context.AfterFunc(bg, func() { j.cancel(context.Cause(bg)) })
		defer stop()
		m.mu.Lock()
		m.admitLocked()
		m.mu.Unlock()
		select {
		case <-slot:
		default:
			if queued != nil {
				queued(j)
			}
			select {
			case <-slot:
			case <-j.ctx.Done():
			}
		}
		fn(j)
	})
	if !ok {
		m.mu.Lock()
		m.removeWaiterLocked(j)
		m.forgetLocked(j)
		m.mu.Unlock()
		j.cancel(context.Canceled)
		close(j.done)
		return nil
	}
	return j
}

// admitLocked lets waiting jobs run, in arrival order, while there is room: a job whose key
// has a job running waits on (the jobs behind it may pass), and cancelled waiters are let go
// (they run without a slot, only to report their end).
func (m *Manager) admitLocked() {
	kept := m.waiting[:0]
	for _, w := range m.waiting {
		switch {
		case w.job.ctx.Err() != nil:
			close(w.go_)
		case w.job.Key != "" && m.busy[w.job.Key] != nil, m.running >= m.max:
			kept = append(kept, w)
		default:
			m.running++
			if w.job.Key != "" {
				m.busy[w.job.Key] = w.job
			}
			w.job.started.Store(true)
			close(w.go_)
		}
	}
	clear(m.waiting[len(kept):])
	m.waiting = kept
}

func (m *Manager) removeWaiterLocked(j *Job) {
	for i, w := range m.waiting {
		if w.job == j {
			m.waiting = append(m.waiting[:i:i], m.waiting[i+1:]...)
			return
		}
	}
}

func (m *Manager) forgetLocked(j *Job) {
	delete(m.byID, j.ID)
	if i := slices.Index(m.byKey[j.Key], j); i >= 0 {
		m.byKey[j.Key] = slices.Delete(m.byKey[j.Key], i, i+1)
		if len(m.byKey[j.Key]) == 0 {
			delete(m.byKey, j.Key)
		}
	}
}

func (m *Manager) finish(j *Job) {
	j.cancel(context.Canceled)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.removeWaiterLocked(j)
	if j.started.Load() {
		m.running--
		if m.busy[j.Key] == j {
			delete(m.busy, j.Key)
		}
	}
	m.forgetLocked(j)
	m.admitLocked()
}

// Cancel cancels the job with the id; false when no such job is running or waiting (it
// ended, or was cancelled already).
func (m *Manager) Cancel(id string) bool {
	m.mu.Lock()
	j := m.byID[id]
	m.mu.Unlock()
	if j == nil || j.ctx.Err() != nil {
		return false
	}
	j.Cancel()
	m.mu.Lock()
	m.admitLocked()
	m.mu.Unlock()
	return true
}

// Get returns the registered job with the id.
func (m *Manager) Get(id string) *Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byID[id]
}

// ByKey returns the jobs registered under key, running or waiting, in arrival order.
func (m *Manager) ByKey(key string) []*Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.byKey[key])
}

// Jobs returns the registered jobs.
func (m *Manager) Jobs() []*Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Job, 0, len(m.byID))
	for _, j := range m.byID {
		out = append(out, j)
	}
	return out
}

// CancelAll cancels every job and waits for them to end, or for ctx.
func (m *Manager) CancelAll(ctx context.Context) error {
	jobs := m.Jobs()
	for _, j := range jobs {
		j.Cancel()
	}
	m.mu.Lock()
	m.admitLocked()
	m.mu.Unlock()
	for _, j := range jobs {
		select {
		case <-j.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
