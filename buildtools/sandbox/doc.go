// Package sandbox owns where untrusted Java runs: every worker JVM of the harness (the project's
// tests, the mutants, every generated test, LLM-written ones included, and the offline explorer)
// starts through Spec.Apply, which wraps the java command in bubblewrap (bwrap) on Linux.
//
// Inside, the JVM sees the system folders (/usr, /etc without what not every user may read, the
// /bin and /lib links) and exactly the paths it is given, read-only at the same paths (the
// project with its class folders, the class path, the local repositories, the worker's own
// entries of AdverTest's cache; never a home folder or a folder above one, which it refuses);
// an empty read-only home at the passwd home (where user.home points); a private bounded /tmp;
// one writable scratch folder that is its working directory. It has its own network namespace
// (only loopback), PID namespace (nothing outlives it), user namespace without capabilities,
// and an allowlisted environment that never holds the API key variable.
//
// Policy is the settings (sandbox.mode, sandbox.env, llm.apiKeyEnv); Policy.Decide, with Probe
// (one bwrap run per process), gives the Status that the report and the server log carry and
// that gates LLM-written code (Status.AllowLLMCode). BuildEnv is the environment of the build
// tools, which run outside the sandbox as the user's own build; Policy.ToolEnv that of git and
// javac. SealDescriptors marks every inherited descriptor close-on-exec, so that none reaches a
// child. docs/sandbox.md says what is contained, how, and what is not.
//
// The package depends on no other package of AdverTest; the harness imports it.
package sandbox
