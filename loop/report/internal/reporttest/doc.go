// Package reporttest holds what the tests of the report formats share: the real reports under
// loop/report/testdata/reports and validation against a vendored JSON schema. Only tests
// import it.
package reporttest
