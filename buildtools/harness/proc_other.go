//go:build !linux

package harness

import "syscall"

// workerProcAttr: without Pdeathsig the worker relies on its stdin closing when we die.
func workerProcAttr() *syscall.SysProcAttr { return nil }
