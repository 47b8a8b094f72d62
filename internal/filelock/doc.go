// Package filelock is the exclusive advisory lock on a file that AdverTest's processes share:
// the coverage map's writers (buildtools/harness) and the writers of .advertest/
// (loop/state). It is its own package because neither of those may import the other.
package filelock
