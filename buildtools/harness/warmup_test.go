package harness

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestWarmUpCompilesInIdleTimeAndKeepsNothing: a pool with warm-up compiles gives each worker
// its share once idle, and they do not push a compile out of the worker's last compiles.
func TestWarmUpCompilesInIdleTimeAndKeepsNothing(t *testing.T) {
	cfg := fx.j4.config()
	cfg.Workers = 1
	cfg.WarmUpCompiles = 6 // more than the worker's four last compiles
	p := openPool(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	src := []Source{{ClassName: "org.acme.Calc", Text: readSource(t, fx.j4, "org/acme/Calc.java")}}
	if cr, err := p.Compile(ctx, src); err != nil || !cr.OK || cr.Origin != "javac" {
		t.Fatalf("first compile: %v %+v", err, cr)
	}
	select {
	case <-p.CompilersWarm():
	case <-ctx.Done():
		t.Fatal("no warm-up in 2 minutes")
	}
	if n := p.warmUps.Load(); n != 6 {
		t.Errorf("%d warm-up compiles, want 6", n)
	}
	if cr, err := p.Compile(ctx, src); err != nil || !cr.OK || cr.Origin != "cache" {
		t.Errorf("the compile after the warm-up: %v, origin %q (want the cache's)", err, cr.Origin)
	}
	// A pool without warm-up compiles is warm at once.
	select {
	case <-openPool(t, fx.j4.config()).CompilersWarm():
	default:
		t.Error("a pool without warm-up compiles is not warm")
	}
}

// TestPrepareWorkerLeavesOpenNothingToMake: on a cold cache PrepareWorker compiles the worker
// and makes its CDS archive, which is what lets a project's opening run it while the build tool
// loads the model; a pool opened on the same cache afterwards compiles nothing, trains no
// archive (the one it uses was written before it opened) and runs tests.
func TestPrepareWorkerLeavesOpenNothingToMake(t *testing.T) {
	cfg := fx.j4.config()
	cfg.CacheDir = t.TempDir()
	if err := PrepareWorker(context.Background(), Config{JavaHome: cfg.JavaHome, CacheDir: cfg.CacheDir}); err != nil {
		t.Fatalf("PrepareWorker: %v", err)
	}
	before := time.Now()
	p := openPool(t, cfg)
	if p.workerBuilt {
		t.Error("Open compiled the worker again")
	}
	if p.launch.cds == nil {
		t.Skip("no CDS archive before JDK 13")
	}
	info, err := os.Stat(p.launch.cds.archive)
	if err != nil {
		t.Fatalf("the pool's CDS archive: %v", err)
	}
	if !info.ModTime().Before(before) {
		t.Errorf("the CDS archive was written at %v, after Open started at %v", info.ModTime(), before)
	}
	r := run(t, p, RunSpec{Tests: []TestID{clampsLow}})
	if got := find(t, r, clampsLow.String()).Outcome; got != Passed {
		t.Errorf("clampsLow: %s", got)
	}
}
