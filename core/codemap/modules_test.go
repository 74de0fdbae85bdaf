package codemap

import "testing"

func TestIsTestAndIsTestCase(t *testing.T) {
	cases := []struct {
		path       string
		test, tcas bool
	}{
		{"pkg/host/host.go", false, false},
		{"pkg/host/host_test.go", true, true},
		{"tests/test_api.py", true, true},
		{"web/src/cart.spec.ts", true, true},
		{"src/test/java/com/shop/CartTest.java", true, true},
		{"internal/x/testdata/input.go", true, true},
		{"web/__tests__/cart.js", true, true},
		{"web/__mocks__/api.js", true, true},
		// Helpers and frameworks of test trees are tests for the map, but
		// code in their own right for ranking.
		{"test/e2e/framework/pod/wait.go", true, false},
		{"tests/conftest.py", true, false},
		{"spec/spec_helper.rb", true, false},
		// Benchmark suites run the code as tests do: ranked as test
		// cases, and a project's code still when the map lists it.
		{"bench/quality/engine.go", false, true},
		{"asv_bench/benchmarks/groupby.py", false, true},
		{"sympy/core/benchmarks/bench_basic.py", false, true},
		{"benches/parse.rs", false, true},
		{"src/workbench/panel.ts", false, false},
	}
	for _, c := range cases {
		if got := IsTest(c.path); got != c.test {
			t.Errorf("IsTest(%q) = %v", c.path, got)
		}
		if got := IsTestCase(c.path); got != c.tcas {
			t.Errorf("IsTestCase(%q) = %v", c.path, got)
		}
	}
}
