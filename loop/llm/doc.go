// Package llm is the paper's two agents over any OpenAI-compatible chat endpoint (OpenAI,
// DeepSeek, vLLM, Ollama, llama.cpp): a test agent T that writes a JUnit class, repairs it (the
// six rules of the paper's Appendix A, then LLM rounds with the compiler or loading error) and
// hands over only tests that compile and run on the original; a mutant agent M that proposes
// single-line mutants as JSON; and Mixed, which lets the LLM's M and the rule-based M feed one
// pool. It owns the client (temperature 0 and max_tokens really sent, retries with backoff, a
// concurrency limit, a request timeout, no redirects followed, answers bounded to 8 MiB, token
// and cost accounting), the budget (BudgetAccount: each request's worst case reserved before it
// is sent, shareable by several clients), reply parsing and repair. See docs/llm.md.
//
// Subpackages: prompts (the embedded, readable prompt templates), llmtest (a scripted
// OpenAI-compatible server on 127.0.0.1 for tests).
package llm
