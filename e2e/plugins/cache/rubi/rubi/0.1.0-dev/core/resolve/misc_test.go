package resolve

import (
	"testing"
	"testing/fstest"

	"github.com/rubi-dev/rubi/core"
)

func TestRuby(t *testing.T) {
	p := project(t, map[string]string{
		"mygem.gemspec":                "",
		"lib/mygem.rb":                 "",
		"lib/mygem/version.rb":         "",
		"lib/mygem/util.rb":            "",
		"test/mygem_test.rb":           "",
		"gems/other/other.gemspec":     "",
		"gems/other/lib/other.rb":      "",
		"gems/other/lib/other/util.rb": "",
		"gems/other/lib/mygem/util.rb": "", // shadows the root gem's file for its own gem
		"app/lib/notgem.rb":            "",
		"app/models/user.rb":           "",
	})
	const rb, rel, req = core.LangRuby, core.ImportRelative, core.ImportRequire
	runKindCases(t, p, nil, []kindCase{
		{"require_relative", "lib/mygem.rb", rb, rel, "mygem/version", []string{"lib/mygem/version.rb"}, 0},
		{"require_relative up", "test/mygem_test.rb", rb, rel, "../lib/mygem", []string{"lib/mygem.rb"}, 0},
		{"require_relative with extension", "app/models/user.rb", rb, rel, "../lib/notgem.rb", []string{"app/lib/notgem.rb"}, 0},
		{"require_relative missing", "lib/mygem.rb", rb, rel, "nope", nil, unresolved},
		{"require from root lib", "test/mygem_test.rb", rb, req, "mygem/version", []string{"lib/mygem/version.rb"}, 0},
		{"require from a gem's lib", "app/models/user.rb", rb, req, "other/util", []string{"gems/other/lib/other/util.rb"}, 0},
		{"own gem first", "gems/other/lib/other.rb", rb, req, "mygem/util", []string{"gems/other/lib/mygem/util.rb"}, 0},
		{"root lib for others", "app/models/user.rb", rb, req, "mygem/util", []string{"lib/mygem/util.rb"}, 0},
		{"require dot relative", "lib/mygem.rb", rb, req, "./mygem/util", []string{"lib/mygem/util.rb"}, 0},
		{"lib without gemspec is not searched", "app/models/user.rb", rb, req, "notgem", nil, external},
		{"missing file of a project gem", "app/models/user.rb", rb, req, "mygem/nope", nil, unresolved},
		{"stdlib", "lib/mygem.rb", rb, req, "json", nil, external},
		{"gem", "lib/mygem.rb", rb, req, "active_support/core_ext", nil, external},
	})
	// A gemspec that the file list leaves out is found on disk.
	fsys := fstest.MapFS{"pkg/x.gemspec": {}}
	p = NewProjectFS(fsys, []string{"pkg/lib/x.rb", "main.rb"})
	if got, ok := p.Resolve("main.rb", rb, core.Import{Spec: "x", Kind: req}); !ok || got[0] != "pkg/lib/x.rb" {
		t.Errorf("gemspec on disk: %v %v", got, ok)
	}
}

func TestC(t *testing.T) {
	p := project(t, map[string]string{
		"src/main.c":                   "",
		"src/util.h":                   "",
		"src/compat/string.h":          "",
		"src/compat/compat.c":          "",
		"include/proj/api.h":           "",
		"vendor/other/proj/api.h":      "",
		"vendor/other/impl.c":          "",
		"third_party/zlib/zlib.h":      "",
		"libs/a/include/common.h":      "",
		"libs/b/include/common.h":      "",
		"libs/a/src/a.c":               "",
		"app/main.cpp":                 "",
		"deep/pkg/sub/only.hpp":        "",
		"dup1/x/dup.hpp":               "",
		"dup2/x/dup.hpp":               "",
		"config.h":                     "",
		"engine/render/gl/shader.inl":  "",
		"engine/render/gl/shader.hpp":  "",
		"engine/render/gl/shader.cpp":  "",
		"engine/render/gl/other.h":     "",
		"engine/core/core.h":           "",
		"engine/core/core.cpp":         "",
		"engine/engine.h":              "",
		"stray/copy/core/core.h":       "",
		"tools/gen/include/gen/meta.h": "",
	})
	const c, cpp, sys = core.LangC, core.LangCPP, core.ImportSystem
	runKindCases(t, p, nil, []kindCase{
		{"next to the includer", "src/main.c", c, "", "util.h", []string{"src/util.h"}, 0},
		{"relative path", "src/compat/compat.c", c, "", "../util.h", []string{"src/util.h"}, 0},
		{"include dir", "src/main.c", c, "", "proj/api.h", []string{"include/proj/api.h"}, 0},
		{"includer's own tree first", "vendor/other/impl.c", cpp, "", "proj/api.h", []string{"vendor/other/proj/api.h"}, 0},
		{"root", "engine/core/core.cpp", cpp, "", "config.h", []string{"config.h"}, 0},
		{"nearest include dir", "libs/a/src/a.c", c, "", "common.h", []string{"libs/a/include/common.h"}, 0},
		{"equally near include dirs", "app/main.cpp", cpp, "", "common.h", []string{"libs/a/include/common.h", "libs/b/include/common.h"}, 0},
		{"directory of other headers beats a stray copy", "app/main.cpp", cpp, "", "core/core.h", []string{"engine/core/core.h"}, 0},
		{"inline file", "engine/render/gl/shader.hpp", cpp, "", "shader.inl", []string{"engine/render/gl/shader.inl"}, 0},
		{"unique suffix", "app/main.cpp", cpp, "", "sub/only.hpp", []string{"deep/pkg/sub/only.hpp"}, 0},
		{"ambiguous suffix", "app/main.cpp", cpp, "", "x/dup.hpp", nil, unresolved},
		{"quoted missing", "src/main.c", c, "", "generated.h", nil, unresolved},
		{"quoted escapes", "src/main.c", c, "", "../../x.h", nil, unresolved},
		{"system in include dir", "src/main.c", c, sys, "proj/api.h", []string{"include/proj/api.h"}, 0},
		{"angle brackets are system", "src/main.c", c, "", "<proj/api.h>", []string{"include/proj/api.h"}, 0},
		{"system from a header directory", "src/main.c", c, sys, "util.h", []string{"src/util.h"}, 0},
		{"system never relative to the includer", "src/compat/compat.c", c, sys, "../util.h", nil, external},
		{"vendored library header", "src/main.c", c, sys, "zlib.h", []string{"third_party/zlib/zlib.h"}, 0},
		{"system std header not captured by a shim", "src/main.c", c, sys, "string.h", nil, external},
		{"quoted std header next to the includer", "src/compat/compat.c", c, "", "string.h", []string{"src/compat/string.h"}, 0},
		{"system header", "src/main.c", c, sys, "stdio.h", nil, external},
		{"posix header", "src/main.c", c, sys, "sys/types.h", nil, external},
		{"c++ header", "app/main.cpp", cpp, sys, "vector", nil, external},
		{"system ambiguous", "app/main.cpp", cpp, sys, "x/dup.hpp", nil, external},
		{"tool include dir", "app/main.cpp", cpp, sys, "gen/meta.h", []string{"tools/gen/include/gen/meta.h"}, 0},
	})
}

func TestCSS(t *testing.T) {
	p := project(t, map[string]string{
		"styles/main.scss":                 "",
		"styles/_variables.scss":           "",
		"styles/components/_button.scss":   "",
		"styles/theme/_index.scss":         "",
		"styles/reset.css":                 "",
		"styles/legacy/index.sass":         "",
		"styles/print.css":                 "",
		"less/app.less":                    "",
		"less/mixins.less":                 "",
		"assets/base.css":                  "",
		"styles/components/card/card.scss": "",
	})
	const css = core.LangCSS
	m := "styles/main.scss"
	runKindCases(t, p, nil, []kindCase{
		{"partial", m, css, "", "variables", []string{"styles/_variables.scss"}, 0},
		{"partial with dir", m, css, "", "components/button", []string{"styles/components/_button.scss"}, 0},
		{"partial with extension", m, css, "", "./_variables.scss", []string{"styles/_variables.scss"}, 0},
		{"partial named with extension", m, css, "", "variables.scss", []string{"styles/_variables.scss"}, 0},
		{"index partial", m, css, "", "theme", []string{"styles/theme/_index.scss"}, 0},
		{"index in sass", m, css, "", "./legacy", []string{"styles/legacy/index.sass"}, 0},
		{"plain css", m, css, "", "./reset.css", []string{"styles/reset.css"}, 0},
		{"css by stem", m, css, "", "reset", []string{"styles/reset.css"}, 0},
		{"url", "styles/print.css", css, "", `url("reset.css")`, []string{"styles/reset.css"}, 0},
		{"root relative", "styles/print.css", css, "", "/assets/base.css", []string{"assets/base.css"}, 0},
		{"parent", "styles/components/card/card.scss", css, "", "../../variables", []string{"styles/_variables.scss"}, 0},
		{"less", "less/app.less", css, "", "mixins", []string{"less/mixins.less"}, 0},
		{"missing relative", m, css, "", "./nope", nil, unresolved},
		{"tilde package", m, css, "", "~bootstrap/scss/bootstrap", nil, external},
		{"bare package", m, css, "", "bootstrap/scss/bootstrap", nil, external},
		{"sass module", m, css, "", "sass:math", nil, external},
		{"remote", "styles/print.css", css, "", "https://fonts.googleapis.com/css?family=Roboto", nil, external},
	})
}

func TestDart(t *testing.T) {
	p := project(t, map[string]string{
		"pubspec.yaml":                   "name: my_app\ndependencies:\n  flutter:\n    sdk: flutter\n",
		"lib/main.dart":                  "",
		"lib/src/widget.dart":            "",
		"lib/src/widget.g.dart":          "",
		"test/widget_test.dart":          "",
		"packages/core/pubspec.yaml":     "name: core_pkg\n",
		"packages/core/lib/core.dart":    "",
		"packages/core/lib/src/a.dart":   "",
		"packages/broken/pubspec.yaml":   "name: [",
		"packages/broken/lib/b.dart":     "",
		"packages/nameless/pubspec.yaml": "version: 1.0.0\n",
		"packages/nameless/lib/n.dart":   "",
	})
	if w := p.Warnings(); len(w) != 2 || w[0].File != "packages/broken/pubspec.yaml" || w[1].File != "packages/nameless/pubspec.yaml" {
		t.Errorf("warnings = %v", w)
	}
	const d, mod = core.LangDart, core.ImportModule
	runKindCases(t, p, nil, []kindCase{
		{"own package", "test/widget_test.dart", d, "", "package:my_app/src/widget.dart", []string{"lib/src/widget.dart"}, 0},
		{"other project package", "lib/main.dart", d, "", "package:core_pkg/core.dart", []string{"packages/core/lib/core.dart"}, 0},
		{"relative", "lib/main.dart", d, "", "src/widget.dart", []string{"lib/src/widget.dart"}, 0},
		{"relative up", "packages/core/lib/src/a.dart", d, "", "../core.dart", []string{"packages/core/lib/core.dart"}, 0},
		{"part", "lib/src/widget.dart", d, mod, "widget.g.dart", []string{"lib/src/widget.g.dart"}, 0},
		{"part of", "lib/src/widget.g.dart", d, mod, "widget.dart", []string{"lib/src/widget.dart"}, 0},
		{"part of a library name", "lib/src/widget.g.dart", d, mod, "my_app.widget", nil, unresolved},
		{"missing in project package", "lib/main.dart", d, "", "package:core_pkg/nope.dart", nil, unresolved},
		{"missing relative", "lib/main.dart", d, "", "nope.dart", nil, unresolved},
		{"sdk", "lib/main.dart", d, "", "dart:async", nil, external},
		{"third-party package", "lib/main.dart", d, "", "package:flutter/material.dart", nil, external},
	})
}
