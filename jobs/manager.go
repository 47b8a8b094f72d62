package jobs

import (
	"context"
	"errors"
	"fmt"
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
	byKey   map[string]*Job
	nextID  int
}

type waiter struct {
	job *Job
	go_ chan struct{}
}

// NewManager returns a manager that runs at most max jobs at once (at least 1).
func NewManager(max int, spawn Spawn) *Manager {
	return &Manager{spawn: spawn, max: max1(max), byID: map[string]*Job{}, byKey: map[string]*Job{}}
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

// Start registers a job under key (a method) and runs fn once a slot is free. A job already
// registered under key is cancelled (cause ErrReplaced) first. fn gets the job; its context
// is cancelled when the job is. It returns nil when the manager cannot start work any more
// (the session has ended).
func (m *Manager) Start(key, kind string, queued func(*Job), fn func(*Job)) *Job {
	m.mu.Lock()
	m.nextID++
	id := fmt.Sprintf("%d", m.nextID)
	if old := m.byKey[key]; old != nil && key != "" {
		old.cancel(ErrReplaced)
	}
	j := &Job{ID: id, Key: key, Kind: kind, done: make(chan struct{})}
	m.byID[id] = j
	if key != "" {
		m.byKey[key] = j
	}
	slot := make(chan struct{})
	m.waiting = append(m.waiting, waiter{job: j, go_: slot})
	// The context is set before the job can be found by Cancel or replaced.
	j.ctx, j.cancel = context.WithCancelCause(context.Background())
	m.mu.Unlock()

	ok := m.spawn("job "+kind+" "+id, func(bg context.Context) {
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

// admitLocked lets waiting jobs run while there is room; cancelled waiters are skipped (they
// run without a slot, only to report their end).
func (m *Manager) admitLocked() {
	for len(m.waiting) > 0 {
		w := m.waiting[0]
		if w.job.ctx.Err() != nil {
			m.waiting = m.waiting[1:]
			close(w.go_)
			continue
		}
		if m.running >= m.max {
			return
		}
		m.waiting = m.waiting[1:]
		m.running++
		w.job.started.Store(true)
		close(w.go_)
	}
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
	if m.byKey[j.Key] == j {
		delete(m.byKey, j.Key)
	}
}

func (m *Manager) finish(j *Job) {
	j.cancel(context.Canceled)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.removeWaiterLocked(j)
	if j.started.Load() {
		m.running--
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

// ByKey returns the job registered under key.
func (m *Manager) ByKey(key string) *Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byKey[key]
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
