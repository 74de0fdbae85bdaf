package regex

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/parsertest"
)

// TestFixtures runs the shared fixture suite (core/parsertest), which
// lang.treesitter runs too.
func TestFixtures(t *testing.T) {
	parsertest.Run(t, New(), "testdata/*.txtar")
}

// TestContract runs the checks every parser must pass (core/parsertest).
func TestContract(t *testing.T) {
	parsertest.Contract(t, func(*testing.T) core.Parser { return New() })
}

func TestInfo(t *testing.T) {
	info := New().Info()
	for _, l := range []string{core.LangGo, core.LangPython, core.LangJavaScript, core.LangTypeScript,
		core.LangRust, core.LangJava, core.LangKotlin, core.LangPHP, core.LangRuby, core.LangC, core.LangCPP,
		core.LangCSS, core.LangDart, core.LangVue, core.LangSvelte} {
		if !slices.Contains(info.Languages, l) {
			t.Errorf("Languages %v lacks %s", info.Languages, l)
		}
	}
	b, ok := core.LookupBuiltin(Name)
	if !ok || b.Kind != core.KindParser {
		t.Fatalf("not registered: %+v", b)
	}
	if _, ok := b.Factory().(*Parser); !ok {
		t.Errorf("factory makes %T", b.Factory())
	}
}

// TestPathological runs inputs that once made, or could make, the scan
// quadratic: keywords with no clause, unterminated regexes and brackets,
// deep nesting, runs of blank lines. Linear, they take milliseconds; the
// bound is generous so that only a complexity regression trips it.
func TestPathological(t *testing.T) {
	const size = 256 << 10
	rep := func(s string) string { return strings.Repeat(s, size/len(s)) }
	var deep strings.Builder
	for i := range 500 {
		deep.WriteString(strings.Repeat(" ", i) + "def f():\n")
	}
	inputs := map[string]string{
		"keywords.js":    rep("import "),
		"clauses.js":     rep("import a,b,c,d,e,f,g,h "),
		"braces.js":      rep("export {"),
		"slashes.js":     rep("(/"),
		"regexclass.js":  rep("x=(/["),
		"minified.js":    rep("function a(b){return b/2}import('x');"),
		"unclosed.js":    rep("function f() {\n"),
		"classes.ts":     rep("class A {\n m() {\n"),
		"unclosed.go":    rep("func f() {\n"),
		"quotes.go":      rep(`"\\`),
		"longline.go":    "package p\nvar x = " + rep("a+") + "\n",
		"deep.py":        deep.String(),
		"triple.py":      rep(`"""`),
		"parens.py":      rep("def f(\n"),
		"defs.py":        rep("class A:\n  def m(self):\n    pass\n"),
		"blank.py":       "def f():\n  pass\n" + rep("\n"),
		"dynamic.py":     rep("__import__('x');"),
		"raw.rs":         rep("r#"),
		"hashes.rs":      rep("r##\""),
		"lifetimes.rs":   rep("'a "),
		"comments.rs":    rep("/*"),
		"usegroups.rs":   rep("use a::{"),
		"impls.rs":       rep("impl<"),
		"fns.rs":         rep("fn f() {\n"),
		"pubs.rs":        rep("pub(crate) use ((("),
		"mods.rs":        rep("mod a {\n use super::x;\n"),
		"classes.java":   rep("class A {\n"),
		"annots.java":    rep("@A(\n"),
		"imports.java":   rep("import a.b."),
		"methods.java":   rep("void m(\n"),
		"members.java":   "class A {\n" + rep("int x;\n"),
		"templates.kt":   rep("\"${"),
		"classes.kt":     rep("class A\n"),
		"funs.kt":        rep("fun f(\n"),
		"tags.php":       rep("<?php "),
		"heredocs.php":   rep("<<<EOT\n"),
		"uses.php":       rep("use A\\{"),
		"requires.php":   "<?php " + rep("require "),
		"closes.php":     "<?php " + rep("?>"),
		"nested.php":     "<?php " + rep("class A {\n function f() {\n"),
		"heredocs.rb":    rep("<<~A\n"),
		"percents.rb":    rep("%w["),
		"classes.rb":     rep("class A\n def f\n"),
		"interp.rb":      rep("\"#{"),
		"begins.rb":      rep("=begin\n"),
		"requires.rb":    rep("require '"),
		"protos.c":       rep("int f(\n"),
		"typedefs.c":     rep("typedef struct {\n"),
		"raw.cpp":        rep("R\"x("),
		"digits.cpp":     rep("a'b'"),
		"namespaces.cpp": rep("namespace a {\n"),
		"macros.c":       rep("#define X \\\n"),
		"gnu.c":          rep("int\nf(\n"),
		"structs.cpp":    rep("struct A {\n"),
		"calls.c":        rep("int a b c d e f g h("),
		"imports.scss":   rep("@import "),
		"urls.css":       rep("url("),
		"vars.scss":      rep("$a: 1;\n"),
		"lists.scss":     "@import " + rep("'a',"),
		"templates.dart": rep("'${"),
		"classes.dart":   rep("class A {\n"),
		"conds.dart":     "import 'a' " + rep("if (b) 'c' "),
		"scripts.vue":    rep("<script>"),
		"comments.vue":   rep("<!--"),
		"opens.svelte":   rep("<script "),
		"blocks.vue":     rep("<script>x</script>"),
	}
	var files []core.SourceFile
	for name, src := range inputs {
		files = append(files, core.SourceFile{Path: name, Language: core.DetectLanguage(name), Content: []byte(src)})
	}
	start := time.Now()
	facts, err := New().Parse(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("%d files of %d KiB took %v", len(files), size>>10, d)
	}
	for i, f := range facts {
		parsertest.CheckSane(t, files[i], f)
	}
}

func FuzzParse(f *testing.F) {
	archives, _ := filepath.Glob("testdata/*.txtar")
	for _, path := range archives {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			f.Add(filepath.Ext(file.Name), file.Data)
		}
	}
	p := New()
	f.Fuzz(func(t *testing.T, ext string, src []byte) {
		sf := core.SourceFile{Path: "x" + ext, Language: core.DetectLanguage("x" + ext), Content: src}
		facts, err := p.Parse(context.Background(), []core.SourceFile{sf})
		if err != nil {
			t.Fatal(err)
		}
		parsertest.CheckSane(t, sf, facts[0])
	})
}

// benchFiles generates about 2,000 lines of ordinary code per language.
func benchFiles() []core.SourceFile {
	var g, py, ts strings.Builder
	g.WriteString("// Package bench is generated.\npackage bench\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\tstr \"strings\"\n)\n\n")
	py.WriteString("\"\"\"Generated.\"\"\"\nimport os\nfrom .models import (\n    User,\n    Group,\n)\n\nMAX = 10\n\n")
	ts.WriteString("import React, { useState } from 'react';\nimport type { Props } from './types';\nconst fs = require('fs');\n\n")
	for i := 0; i < 125; i++ {
		fmt.Fprintf(&g, `// Item%[1]d is an item.
type Item%[1]d struct {
	Name  string // the name
	Count int
}

// Get%[1]d returns "the item" and says so.
func (it *Item%[1]d) Get%[1]d(ctx context.Context, key string) (string, error) {
	if key == "" {
		return "", fmt.Errorf("empty key: %%s", /* why */ key)
	}
	s := str.Repeat(key, 2) + `+"`raw`"+`
	return s, nil
}

const limit%[1]d = %[1]d

`, i)
		fmt.Fprintf(&py, `class Service%[1]d(Base):
    """Service %[1]d does things."""

    def __init__(self, name: str) -> None:
        self.name = name  # the name

    async def fetch(self, key):
        '''Fetch a key.'''
        if not key:
            raise ValueError("empty key: import nothing")
        return await self.client.get(f"/items/{key}")


def helper_%[1]d(a, b=2):
    return [x * b for x in range(a)]


`, i)
		fmt.Fprintf(&ts, `/**
 * Widget%[1]d renders something.
 */
export class Widget%[1]d extends React.Component<Props> {
  private count = 0;
  render() {
    const label = `+"`item ${this.count} / %[1]d`"+`;
    return <div className="w">{label}</div>;
  }
  handle = (e: Event): void => {
    this.count += e.detail / 2; // ratio
  };
}

export const use%[1]d = <T,>(x: T): T => {
  const [v] = useState(x);
  return v;
};

`, i)
	}
	return append([]core.SourceFile{
		{Path: "bench.go", Language: core.LangGo, Content: []byte(g.String())},
		{Path: "bench.py", Language: core.LangPython, Content: []byte(py.String())},
		{Path: "bench.tsx", Language: core.LangTypeScript, Content: []byte(ts.String())},
	}, moreBenchFiles()...)
}

// benchBlocks renders head, then block 125 times with %[1]d the index,
// then tail.
func benchBlocks(head, block, tail string) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; i < 125; i++ {
		fmt.Fprintf(&b, block, i)
	}
	b.WriteString(tail)
	return []byte(b.String())
}

// moreBenchFiles generates about 2,000 lines per language added after Go,
// Python and TypeScript.
func moreBenchFiles() []core.SourceFile {
	var vueTemplate strings.Builder
	vueTemplate.WriteString("<template>\n  <div class=\"list\">\n")
	for i := 0; i < 125; i++ {
		fmt.Fprintf(&vueTemplate, `    <section v-if="show%[1]d">
      <h2>{{ title%[1]d }}</h2>
      <p :class="{ a: x > %[1]d }">{{ label%[1]d }} item's text // not a comment</p>
      <!-- <script>import Nope from 'nope'</script> -->
      <button @click="handle%[1]d($event)">import x from 'y'</button>
      <input v-model="value%[1]d" />
    </section>
`, i)
	}
	vueTemplate.WriteString("  </div>\n</template>\n\n<script setup lang=\"ts\">\nimport { ref } from 'vue';\nimport Item from './Item.vue';\n\n")
	return []core.SourceFile{
		{Path: "bench.rs", Language: core.LangRust, Content: benchBlocks(
			"//! Generated.\nuse std::collections::HashMap;\nuse crate::{a::B, c};\nmod util;\n\n", `/// Item%[1]d is an item.
#[derive(Debug, Clone)]
pub struct Item%[1]d<'a> {
    name: &'a str, // the name
    count: usize,
}

impl<'a> Item%[1]d<'a> {
    /// Get returns "the item".
    pub fn get%[1]d(&self, key: &str) -> Result<String, Error> {
        if key.is_empty() {
            return Err(Error::new(format!("empty key: {}", /* why */ key)));
        }
        let s = r#"raw "string""#.repeat(2);
        let c = '}';
        Ok(s)
    }
}

const LIMIT_%[1]d: usize = %[1]d;

`, "")},
		{Path: "Bench.java", Language: core.LangJava, Content: benchBlocks(
			"package bench;\n\nimport java.util.List;\nimport static java.util.Objects.requireNonNull;\n\npublic class Bench {\n", `    /**
     * Item%[1]d is an item.
     */
    public static class Item%[1]d implements Comparable<Item%[1]d> {
        private final String name; // the name
        private int count;

        @Override
        public int compareTo(Item%[1]d other) {
            if (other == null) {
                throw new IllegalArgumentException("null: " + /* why */ name);
            }
            return Integer.compare(count, other.count);
        }

        public String get%[1]d(String key) { return key.repeat(2) + "}"; }
    }

`, "}\n")},
		{Path: "Bench.kt", Language: core.LangKotlin, Content: benchBlocks(
			"package bench\n\nimport kotlin.math.max\nimport bench.util.*\n\n", `/** Item%[1]d is an item. */
data class Item%[1]d(val name: String, val count: Int = 0) : Comparable<Item%[1]d> {
    override fun compareTo(other: Item%[1]d): Int {
        if (count < 0) {
            throw IllegalStateException("bad: ${name} /* not a comment */")
        }
        return count.compareTo(other.count)
    }

    fun get%[1]d(key: String): String = key.repeat(2) + "}"
}

val limit%[1]d = %[1]d

fun helper%[1]d(a: Int, b: Int = 2): List<Int> = (0 until a).map { it * b }

`, "")},
		{Path: "bench.php", Language: core.LangPHP, Content: benchBlocks(
			"<?php\nnamespace App\\Bench;\n\nuse App\\Models\\User;\nuse App\\Support\\{Str, Arr};\nrequire_once __DIR__ . '/boot.php';\n\n", `/**
 * Item%[1]d is an item.
 */
final class Item%[1]d extends Base implements \Countable
{
    private string $name; // the name
    public const LIMIT = %[1]d;

    public function count(): int
    {
        if ($this->name === '') {
            throw new \InvalidArgumentException("empty: {$this->name} // not a comment");
        }
        return strlen($this->name) %% 2;
    }

    private function get%[1]d(string $key): string { return str_repeat($key, 2) . '}'; }
}

function helper%[1]d(int $a, int $b = 2): array { return array_map(fn($x) => $x * $b, range(0, $a)); }

`, "")},
		{Path: "bench.rb", Language: core.LangRuby, Content: benchBlocks(
			"# frozen_string_literal: true\n\nrequire 'json'\nrequire_relative 'base'\n\nmodule Bench\n", `  # Item%[1]d is an item.
  class Item%[1]d < Base
    LIMIT = %[1]d

    def initialize(name, count = 0)
      @name = name # the name
      @count = count
    end

    def get%[1]d(key)
      raise ArgumentError, "empty key: #{key.inspect}" if key.empty?
      "#{key * 2}}" + %%w[a b].join
    end

    private

    def secret%[1]d = @count / 2
  end

`, "end\n")},
		{Path: "bench.c", Language: core.LangC, Content: benchBlocks(
			"#include <stdio.h>\n#include <string.h>\n#include \"bench.h\"\n\n", `/* Item%[1]d is an item. */
struct item%[1]d {
    const char *name; /* the name */
    int count;
};

static int get%[1]d(const struct item%[1]d *it, const char *key)
{
    if (key == NULL || *key == '\0') {
        fprintf(stderr, "empty key: %%s // not a comment\n", it->name);
        return -1;
    }
    return it->count + (int) strlen(key);
}

#define LIMIT_%[1]d %[1]d

`, "")},
		{Path: "bench.cpp", Language: core.LangCPP, Content: benchBlocks(
			"#include <string>\n#include <stdexcept>\n#include \"base.hpp\"\n\nnamespace bench {\n\n", `/// Item%[1]d is an item.
class Item%[1]d : public Base {
public:
    explicit Item%[1]d(std::string name) : name_(std::move(name)) {}
    int get%[1]d(const std::string &key) const {
        if (key.empty()) {
            throw std::invalid_argument("empty key: // not a comment");
        }
        return static_cast<int>(key.size()) + count_;
    }
    int count() const;
private:
    std::string name_;
    int count_ = 0;
};

int Item%[1]d::count() const { return count_ / 2; }

`, "}  // namespace bench\n")},
		{Path: "bench.scss", Language: core.LangCSS, Content: benchBlocks(
			"@use \"sass:math\";\n@import 'variables', 'mixins';\n\n", `/// Item %[1]d mixin.
@mixin item-%[1]d($w: 10px) {
  width: $w * 2;
  &:hover { color: darken($primary, 10%%); }
}

$size-%[1]d: %[1]dpx;

.item-%[1]d {
  @include item-%[1]d(12px);
  background: url("img/item-%[1]d.png") no-repeat; // a comment
  content: "// not a comment";
  margin: 0 auto; /* spacing */
  .title { font-weight: bold; }
}

`, "")},
		{Path: "bench.dart", Language: core.LangDart, Content: benchBlocks(
			"import 'dart:async';\nimport 'package:bench/base.dart';\npart 'bench.g.dart';\n\n", `/// Item%[1]d is an item.
class Item%[1]d extends Base implements Comparable<Item%[1]d> {
  final String name; // the name
  int count = 0;

  Item%[1]d(this.name);

  @override
  int compareTo(Item%[1]d other) {
    if (count < 0) {
      throw StateError('bad: ${name} // not a comment');
    }
    return count.compareTo(other.count);
  }

  String get%[1]d(String key) => key * 2 + '}';
}

const limit%[1]d = %[1]d;

`, "")},
		{Path: "bench.vue", Language: core.LangVue, Content: benchBlocks(vueTemplate.String(), `/** Handler%[1]d handles. */
export function handle%[1]d(e: Event): void {
  const label = `+"`item ${e.type} / %[1]d`"+`;
  if (label.length > 2) {
    console.log(label); // log
  }
  return;
}

`, "</script>\n\n<style scoped>\n.list { color: red; }\n</style>\n")},
	}
}

func BenchmarkParse(b *testing.B) {
	for _, f := range benchFiles() {
		b.Run(f.Language, func(b *testing.B) {
			p := New()
			files := []core.SourceFile{f}
			b.SetBytes(int64(len(f.Content)))
			for b.Loop() {
				if _, err := p.Parse(context.Background(), files); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(strings.Count(string(f.Content), "\n")), "lines")
		})
	}
}

// TestBenchInput keeps the benchmark honest: its input parses as expected.
func TestBenchInput(t *testing.T) {
	files := benchFiles()
	facts, err := New().Parse(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{ // imports, symbols
		core.LangGo:         {3, 125 * 3},
		core.LangPython:     {2, 1 + 125*4},
		core.LangTypeScript: {3, 1 + 125*4},
		core.LangRust:       {4, 1 + 125*3},
		core.LangJava:       {2, 1 + 125*3},
		core.LangKotlin:     {2, 125 * 5},
		core.LangPHP:        {4, 125 * 5},
		core.LangRuby:       {2, 1 + 125*5},
		core.LangC:          {3, 125 * 3},
		core.LangCPP:        {3, 1 + 125*4},
		core.LangCSS:        {3, 125 * 2},
		core.LangDart:       {3, 125 * 5},
		core.LangVue:        {2, 125},
	}
	for i, f := range facts {
		lines := strings.Count(string(files[i].Content), "\n")
		if lines < 1900 {
			t.Errorf("%s: only %d lines", f.Path, lines)
		}
		if w := want[f.Language]; len(f.Imports) != w[0] || len(f.Symbols) != w[1] {
			t.Errorf("%s: %d imports, %d symbols, want %v", f.Path, len(f.Imports), len(f.Symbols), w)
		}
	}
}

// The names of a from-import travel with it, so the resolver can tell a
// submodule (from pkg import views) from a name defined in the package.
func TestPythonFromImportNames(t *testing.T) {
	src := "from pkg import models, views as v\nfrom . import (\n    helpers,\n    utils as u,\n)\nfrom .x import *\nimport a.b\n"
	facts, err := New().Parse(context.Background(), []core.SourceFile{{Path: "m.py", Language: core.LangPython, Content: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"pkg": {"models", "views"}, ".": {"helpers", "utils"}, ".x": nil, "a.b": nil}
	if len(facts[0].Imports) != len(want) {
		t.Fatalf("imports = %+v", facts[0].Imports)
	}
	for _, im := range facts[0].Imports {
		if w, ok := want[im.Spec]; !ok || !slices.Equal(im.Names, w) {
			t.Errorf("import %q names = %q, want %q", im.Spec, im.Names, w)
		}
	}
}

// A file's own description: the Go package comment, the Python module
// docstring, or the first top comment that is not a license header.
func TestFileDoc(t *testing.T) {
	cases := []struct{ lang, src, want string }{
		{core.LangGo, "// Copyright 2024 The Authors. All rights reserved.\n\n// Package host opens pipeline stages.\n// More.\npackage host\n", "Package host opens pipeline stages."},
		{core.LangGo, "package host\n\n// Open opens.\nfunc Open() {}\n", ""},
		{core.LangPython, "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\"\"\"Export orders to CSV.\n\nMore.\"\"\"\nimport csv\n", "Export orders to CSV."},
		{core.LangPython, "import csv\n\"\"\"not a docstring\"\"\"\n", ""},
		{core.LangTypeScript, "/**\n * @license MIT\n */\n\n/**\n * HTTP client for the shop's API.\n */\nimport x from './x';\n", "HTTP client for the shop's API."},
		{core.LangJavaScript, "// Cart helpers.\nexport function a() {}\n", "Cart helpers."},
		{core.LangJavaScript, "export function a() {}\n// Not the file's.\n", ""},
		{core.LangRust, "//! Parsing of config files.\n\nuse std::io;\n", "Parsing of config files."},
		{core.LangRuby, "# frozen_string_literal: true\n\n# Billing helpers for invoices.\nmodule Billing\nend\n", "Billing helpers for invoices."},
	}
	for _, c := range cases {
		facts, err := New().Parse(context.Background(), []core.SourceFile{{Path: "f", Language: c.lang, Content: []byte(c.src)}})
		if err != nil {
			t.Fatal(err)
		}
		if facts[0].Doc != c.want {
			t.Errorf("%s %q: doc = %q, want %q", c.lang, c.src, facts[0].Doc, c.want)
		}
	}
}
