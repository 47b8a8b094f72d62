//go:build !unix

package sandbox

// sealDescriptors: outside Unix a child inherits only the handles it is given.
func sealDescriptors() error { return nil }
