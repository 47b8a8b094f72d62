// Package elements embeds the mutation-testing-elements web component (the npm package
// mutation-testing-elements; see README.md here for its origin and licence), which the HTML
// report inlines.
package elements

import _ "embed"

// Version is the npm package's version.
const Version = "3.9.0"

// Bundle is dist/mutation-test-elements.js: the browser bundle that defines the
// <mutation-test-report-app> element.
//
//go:embed mutation-test-elements.js
var Bundle string

// License is the package's LICENSE file (Apache-2.0).
//
//go:embed LICENSE
var License string
