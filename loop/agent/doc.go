// Package agent defines the two players of the AdverTest game as small interfaces, so that
// the offline agents (rule-based mutants, search-based tests) and the LLM agents slot into the
// same loop: T writes JUnit tests, M writes single-line mutants, and a judge (Judge) says
// whether a survivor T could not kill is equivalent to the original. It holds the types the agents
// and the loop exchange, and nothing else.
package agent
