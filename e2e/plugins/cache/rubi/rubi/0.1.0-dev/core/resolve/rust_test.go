package resolve

import (
	"testing"

	"github.com/rubi-dev/rubi/core"
)

func rustProject(t *testing.T) *Project {
	return project(t, map[string]string{
		"Cargo.toml": `
[workspace]
members = ["crates/*"]
exclude = ["crates/skip"]

[workspace.dependencies]
my-util = { path = "crates/util" }
`,
		"crates/app/Cargo.toml": `
[package]
name = "my-app"
version = "0.1.0"

[dependencies]
serde = "1"
util2 = { package = "my-util", path = "../util" }
my-util = { workspace = true }
`,
		"crates/app/build.rs":                "",
		"crates/app/gen.rs":                  "",
		"crates/app/src/lib.rs":              "",
		"crates/app/src/main.rs":             "",
		"crates/app/src/config.rs":           "",
		"crates/app/src/net/mod.rs":          "",
		"crates/app/src/net/http.rs":         "",
		"crates/app/src/net/http/client.rs":  "",
		"crates/app/src/bin/tool.rs":         "",
		"crates/app/src/bin/tool_util.rs":    "",
		"crates/app/src/bin/multi/main.rs":   "",
		"crates/app/src/bin/multi/helper.rs": "",
		"crates/app/tests/it.rs":             "",
		"crates/app/tests/common/mod.rs":     "",
		"crates/util/Cargo.toml":             "[package]\nname = \"my-util\"\n",
		"crates/util/src/lib.rs":             "",
		"crates/util/src/strings.rs":         "",
		"crates/skip/Cargo.toml":             "[package]\nname = \"my-util\"\n",
		"crates/skip/src/lib.rs":             "",
		"bins/only/Cargo.toml":               "[package]\nname = \"only-bin\"\n",
		"bins/only/src/main.rs":              "",
		"custom/Cargo.toml":                  "[package]\nname = \"custom\"\n[lib]\nname = \"renamed_lib\"\npath = \"lib.rs\"\n",
		"custom/lib.rs":                      "",
		"custom/part.rs":                     "",
		"loose/lib.rs":                       "",
		"loose/a.rs":                         "",
		"loose/a/b.rs":                       "",
		"orphan/x.rs":                        "",
		"orphan/y.rs":                        "",
	})
}

func TestRust(t *testing.T) {
	p := rustProject(t)
	noWarnings(t, p)
	const rs, mod = core.LangRust, core.ImportModule
	app := "crates/app/src/"
	lib, main, config := app+"lib.rs", app+"main.rs", app+"config.rs"
	net, http, client := app+"net/mod.rs", app+"net/http.rs", app+"net/http/client.rs"
	runKindCases(t, p, nil, []kindCase{
		// mod x;
		{"mod in lib.rs", lib, rs, mod, "config", []string{config}, 0},
		{"mod dir in lib.rs", lib, rs, mod, "net", []string{net}, 0},
		{"mod in main.rs", main, rs, mod, "config", []string{config}, 0},
		{"mod in mod.rs", net, rs, mod, "http", []string{http}, 0},
		{"mod in non-root file", http, rs, mod, "client", []string{client}, 0},
		{"mod in bin file", app + "bin/tool.rs", rs, mod, "tool_util", []string{app + "bin/tool_util.rs"}, 0},
		{"mod in bin dir", app + "bin/multi/main.rs", rs, mod, "helper", []string{app + "bin/multi/helper.rs"}, 0},
		{"mod in integration test", "crates/app/tests/it.rs", rs, mod, "common", []string{"crates/app/tests/common/mod.rs"}, 0},
		{"mod in build.rs", "crates/app/build.rs", rs, mod, "gen", []string{"crates/app/gen.rs"}, 0},
		{"mod with semicolon", lib, rs, mod, "config;", []string{config}, 0},
		{"missing mod", lib, rs, mod, "nope", nil, unresolved},
		{"mod in crate without Cargo.toml", "loose/lib.rs", rs, mod, "a", []string{"loose/a.rs"}, 0},
		{"mod below non-root file without Cargo.toml", "loose/a.rs", rs, mod, "b", []string{"loose/a/b.rs"}, 0},
		{"mod beside a file of unknown crate", "orphan/x.rs", rs, mod, "y", []string{"orphan/y.rs"}, 0},
		{"crate of unknown root", "orphan/x.rs", rs, "", "crate::y", nil, unresolved},
		{"custom lib path", "custom/lib.rs", rs, mod, "part", []string{"custom/part.rs"}, 0},
		// crate::
		{"crate module path", config, rs, "", "crate::net::http::Client", []string{http}, 0},
		{"crate longest prefix", config, rs, "", "crate::net::http::client::Thing", []string{client}, 0},
		{"crate item in root", config, rs, "", "crate::Config", []string{lib}, 0},
		{"crate inline module", config, rs, "", "crate::inline::X", []string{lib}, 0},
		{"crate from main.rs", main, rs, "", "crate::config::Config", []string{config}, 0},
		{"crate glob", client, rs, "", "crate::config::*", []string{config}, 0},
		{"crate use tree", main, rs, "", "crate::{config::Config, net::{self, http::Get}}", []string{config, http, net}, 0},
		{"crate rename", http, rs, "", "crate::config::Config as Cfg", []string{config}, 0},
		{"crate root of bin dir", app + "bin/multi/helper.rs", rs, "", "crate::X", []string{app + "bin/multi/main.rs"}, 0},
		{"crate in loose tree", "loose/a/b.rs", rs, "", "crate::a::X", []string{"loose/a.rs"}, 0},
		// self:: and super::
		{"self child", net, rs, "", "self::http::Get", []string{http}, 0},
		{"self item", config, rs, "", "self::Thing", nil, resolved},
		{"super sibling", net, rs, "", "super::config::Config", []string{config}, 0},
		{"super item in parent mod.rs", http, rs, "", "super::Request", []string{net}, 0},
		{"super super", client, rs, "", "super::super::Request", []string{net}, 0},
		{"super super super", client, rs, "", "super::super::super::config", []string{config}, 0},
		{"super to crate root", config, rs, "", "super::Thing", []string{lib}, 0},
		{"super glob stays in file", http, rs, "", "super::*", nil, resolved},
		{"super above the root", lib, rs, "", "super::x", nil, unresolved},
		// uniform paths and crates
		{"child module by plain path", lib, rs, "", "config::Config", []string{config}, 0},
		{"workspace crate module", lib, rs, "", "my_util::strings::trim", []string{"crates/util/src/strings.rs"}, 0},
		{"workspace crate root item", lib, rs, "", "my_util::Thing", []string{"crates/util/src/lib.rs"}, 0},
		{"renamed path dependency", lib, rs, "", "util2::strings", []string{"crates/util/src/strings.rs"}, 0},
		{"own crate from a bin", app + "bin/tool.rs", rs, "", "my_app::config::Config", []string{config}, 0},
		{"lib name overrides package name", lib, rs, "", "renamed_lib::part::X", []string{"custom/part.rs"}, 0},
		{"crate without library", lib, rs, "", "only_bin::x", nil, unresolved},
		{"std", lib, rs, "", "std::collections::HashMap", nil, external},
		{"core", lib, rs, "", "core::fmt", nil, external},
		{"alloc", lib, rs, "", "alloc::vec::Vec", nil, external},
		{"registry crate", lib, rs, "", "serde::Serialize", nil, external},
		{"leading colons are a crate", lib, rs, "", "::config::X", nil, external},
		{"std use tree", lib, rs, "", "std::{fmt, io::{self, Read}}", nil, external},
		{"mixed use tree", lib, rs, "", "{std::fmt, crate::config}", []string{config}, 0},
	})
}

func TestRustMalformedCargo(t *testing.T) {
	p := project(t, map[string]string{
		"Cargo.toml": "[package\nname = ",
		"src/lib.rs": "",
		"src/a.rs":   "",
	})
	if w := p.Warnings(); len(w) != 1 || w[0].File != "Cargo.toml" {
		t.Errorf("warnings = %v", w)
	}
	// Module files still resolve by layout.
	runKindCases(t, p, nil, []kindCase{
		{"mod", "src/lib.rs", core.LangRust, core.ImportModule, "a", []string{"src/a.rs"}, 0},
		{"crate", "src/a.rs", core.LangRust, "", "crate::X", []string{"src/lib.rs"}, 0},
	})
}

func TestExpandRustUse(t *testing.T) {
	cases := map[string][]string{
		"a::b":                         {"a::b"},
		"a::{b, c::{d as e, self}, *}": {"a::b", "a::c::d", "a::c", "a"},
		"a::{\n    b,\n    c,\n}":      {"a::b", "a::c"},
		"a::{self}":                    {"a"},
		"a::b::*":                      {"a::b"},
		"{}":                           nil,
	}
	for in, want := range cases {
		got := expandRustUse(in)
		if len(got) != len(want) {
			t.Errorf("expandRustUse(%q) = %q, want %q", in, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("expandRustUse(%q) = %q, want %q", in, got, want)
				break
			}
		}
	}
}
