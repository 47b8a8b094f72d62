//go:build unix && !linux

package sandbox

// sealDescriptors walks /dev/fd (macOS, the BSDs).
func sealDescriptors() error { return sealListed("/dev/fd") }
