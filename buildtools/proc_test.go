//go:build linux

package buildtools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
)

// TestCancelledBuildToolLeavesNoChild: a build tool whose script started a child (as mvn starts
// its JVM and Surefire forks another) is killed with that child when its context ends.
func TestCancelledBuildToolLeavesNoChild(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	script := filepath.Join(dir, "tool")
	body := "#!/bin/sh\nsleep 600 &\necho $! > " + pidFile + "\nwait\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := toolRun{tool: script, dir: dir, purpose: "to test cancellation"}.run(ctx, zap.NewNop(), "")
		done <- err
	}()
	var pid int
	for deadline := time.Now().Add(30 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the tool never started its child")
		}
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a cancelled tool ran to its end")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled tool did not return")
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		// Signal 0 tells whether the process still exists; a zombie is reaped by init soon.
		if err := syscall.Kill(pid, 0); err != nil {
			return
		}
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && strings.Contains(string(b), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tool's child %d outlived the cancelled tool", pid)
		}
	}
}

// TestLowerPriorityReachesTheProcessesStarted: a process started from a goroutine that called
// lowerPriority runs at nice 10, and the goroutines after it (on other threads) do not.
func TestLowerPriorityReachesTheProcessesStarted(t *testing.T) {
	niceOf := func() string {
		out, err := exec.Command("sh", "-c", `cut -d" " -f19 /proc/self/stat`).Output()
		if err != nil {
			t.Fatalf("read a child's nice value: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	base := niceOf()
	got := make(chan string, 1)
	go func() {
		lowerPriority()
		got <- niceOf()
	}()
	n, _ := strconv.Atoi(base)
	if g := <-got; g != strconv.Itoa(min(n+10, 19)) {
		t.Errorf("nice of a child started after lowerPriority = %s, want %d (base %s)", g, min(n+10, 19), base)
	}
	if after := niceOf(); after != base {
		t.Errorf("nice of a child started elsewhere afterwards = %s, want %s", after, base)
	}
}
