package resolve

import (
	"testing"

	"github.com/rubi-dev/rubi/core"
)

var jvmTree = map[string]string{
	"settings.gradle.kts":                                 "",
	"app/build.gradle.kts":                                "",
	"app/src/main/java/com/acme/app/Main.java":            "",
	"app/src/main/java/com/acme/app/Service.java":         "",
	"app/src/test/java/com/acme/app/MainTest.java":        "",
	"app/src/test/java/com/acme/app/Fixtures.java":        "",
	"lib/src/main/kotlin/com/acme/lib/Strings.kt":         "",
	"lib/src/main/kotlin/com/acme/lib/util.kt":            "",
	"lib/src/main/kotlin/com/acme/lib/util/Deep.kt":       "",
	"lib/src/main/kotlin/Flat.kt":                         "", // package com.acme.flat per facts
	"lib/src/commonMain/kotlin/com/acme/mp/Shared.kt":     "",
	"legacy/src/org/old/Thing.java":                       "",
	"odd/java/com/weird/Odd.java":                         "",
	"other/src/main/java/com/acme/app/Service.java":       "",
	"gen/com/acme/gen/Generated.java":                     "", // package com.acme.gen per facts
	"gen/com/acme/gen/NoFacts.java":                       "",
	"app/src/main/java/com/acme/app/internal/Hidden.java": "",
}

func TestJVMPaths(t *testing.T) {
	p := project(t, jvmTree)
	const j, kt = core.LangJava, core.LangKotlin
	mainF := "app/src/main/java/com/acme/app/Main.java"
	test := "app/src/test/java/com/acme/app/MainTest.java"
	runKindCases(t, p, nil, []kindCase{
		{"class in same module", mainF, j, "", "com.acme.app.Service", []string{"app/src/main/java/com/acme/app/Service.java"}, 0},
		{"kotlin class across modules", mainF, j, "", "com.acme.lib.Strings", []string{"lib/src/main/kotlin/com/acme/lib/Strings.kt"}, 0},
		{"kotlin multiplatform source set", mainF, kt, "", "com.acme.mp.Shared", []string{"lib/src/commonMain/kotlin/com/acme/mp/Shared.kt"}, 0},
		{"nested class", mainF, j, "", "com.acme.app.Service.Builder", []string{"app/src/main/java/com/acme/app/Service.java"}, 0},
		{"static member", mainF, j, "", "static com.acme.app.Service.start", []string{"app/src/main/java/com/acme/app/Service.java"}, 0},
		{"kotlin alias", mainF, kt, "", "com.acme.lib.Strings as S", []string{"lib/src/main/kotlin/com/acme/lib/Strings.kt"}, 0},
		{"wildcard skips tests for main code", "lib/src/main/kotlin/com/acme/lib/Strings.kt", kt, "", "com.acme.app.*",
			[]string{"app/src/main/java/com/acme/app/Main.java", "app/src/main/java/com/acme/app/Service.java", "other/src/main/java/com/acme/app/Service.java"}, 0},
		{"wildcard from a test", test, j, "", "com.acme.app.*", []string{"app/src/main/java/com/acme/app/Main.java", "app/src/main/java/com/acme/app/Service.java",
			"app/src/test/java/com/acme/app/Fixtures.java", "other/src/main/java/com/acme/app/Service.java"}, 0},
		{"wildcard of own package", "lib/src/main/kotlin/com/acme/lib/util/Deep.kt", kt, "", "com.acme.lib.util.*", nil, resolved},
		{"test sees main and test", test, j, "", "com.acme.app.Fixtures", []string{"app/src/test/java/com/acme/app/Fixtures.java"}, 0},
		{"static wildcard of a class", mainF, j, "", "static com.acme.app.Service.*", []string{"app/src/main/java/com/acme/app/Service.java"}, 0},
		{"same class in two modules: nearest", mainF, j, "", "com.acme.app.Service", []string{"app/src/main/java/com/acme/app/Service.java"}, 0},
		{"src root", mainF, j, "", "org.old.Thing", []string{"legacy/src/org/old/Thing.java"}, 0},
		{"file outside roots by suffix", mainF, j, "", "com.weird.Odd", []string{"odd/java/com/weird/Odd.java"}, 0},
		{"member of a known package is not a file", mainF, kt, "", "com.acme.lib.util.Missing", nil, unresolved},
		{"missing project class", mainF, j, "", "com.acme.app.Nope", nil, unresolved},
		{"jdk", mainF, j, "", "java.util.List", nil, external},
		{"jdk wildcard", mainF, j, "", "java.util.*", nil, external},
		{"kotlin stdlib", mainF, kt, "", "kotlinx.coroutines.flow.Flow", nil, external},
		{"third party sharing a first segment", mainF, j, "", "com.google.common.collect.ImmutableList", nil, external},
	})
}

// With parser facts, declared packages win over directories and Kotlin
// top-level declarations are found by name.
func TestJVMFacts(t *testing.T) {
	p := project(t, jvmTree)
	facts := []core.FileFacts{
		{Path: "lib/src/main/kotlin/Flat.kt", Language: core.LangKotlin, Package: "com.acme.flat",
			Symbols: []core.Symbol{{Name: "flatten", Kind: core.SymbolFunction}, {Name: "Inner", Kind: core.SymbolClass, Parent: "Flat"}}},
		{Path: "lib/src/main/kotlin/com/acme/lib/util.kt", Language: core.LangKotlin, Package: "com.acme.lib",
			Symbols: []core.Symbol{{Name: "capitalize", Kind: core.SymbolFunction}}},
		{Path: "gen/com/acme/gen/Generated.java", Language: core.LangJava, Package: "com.acme.gen"},
	}
	fx := p.indexFacts(facts)
	const kt = core.LangKotlin
	mainF := "app/src/main/java/com/acme/app/Main.java"
	runKindCases(t, p, fx, []kindCase{
		{"kotlin file in a foreign directory", mainF, kt, "", "com.acme.flat.flatten", []string{"lib/src/main/kotlin/Flat.kt"}, 0},
		{"kotlin wildcard by declared package", mainF, kt, "", "com.acme.flat.*", []string{"lib/src/main/kotlin/Flat.kt"}, 0},
		{"kotlin top-level function", mainF, kt, "", "com.acme.lib.capitalize", []string{"lib/src/main/kotlin/com/acme/lib/util.kt"}, 0},
		{"nested symbols are not top-level", mainF, kt, "", "com.acme.flat.Inner", nil, unresolved},
		{"root found from a matching package clause", mainF, kt, "", "com.acme.gen.NoFacts", []string{"gen/com/acme/gen/NoFacts.java"}, 0},
		{"declared package keeps path index", mainF, kt, "", "com.acme.app.Service", []string{"app/src/main/java/com/acme/app/Service.java"}, 0},
	})
	// Without facts, Flat.kt sits in the default package of its root.
	runKindCases(t, p, nil, []kindCase{
		{"no facts: path package", mainF, kt, "", "Flat", []string{"lib/src/main/kotlin/Flat.kt"}, 0},
		{"no facts: declared package unknown", mainF, kt, "", "com.acme.flat.flatten", nil, unresolved},
	})
}
