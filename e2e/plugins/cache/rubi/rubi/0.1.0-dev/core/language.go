package core

import (
	"path"
	"strings"
)

// Language names used by parsers and by rubi.hcl.
const (
	LangGo         = "go"
	LangPython     = "python"
	LangJavaScript = "javascript"
	LangTypeScript = "typescript"
	LangRust       = "rust"
	LangJava       = "java"
	LangKotlin     = "kotlin"
	LangPHP        = "php"
	LangRuby       = "ruby"
	LangC          = "c"
	LangCPP        = "cpp"
	LangCSharp     = "csharp"
	LangCSS        = "css"
	LangDart       = "dart"
	LangVue        = "vue"
	LangSvelte     = "svelte"
	LangMarkdown   = "markdown"
)

var languageByExt = map[string]string{
	".go":       LangGo,
	".py":       LangPython,
	".pyi":      LangPython,
	".js":       LangJavaScript,
	".jsx":      LangJavaScript,
	".mjs":      LangJavaScript,
	".cjs":      LangJavaScript,
	".ts":       LangTypeScript,
	".tsx":      LangTypeScript,
	".mts":      LangTypeScript,
	".cts":      LangTypeScript,
	".rs":       LangRust,
	".java":     LangJava,
	".kt":       LangKotlin,
	".kts":      LangKotlin,
	".php":      LangPHP,
	".rb":       LangRuby,
	".c":        LangC,
	".h":        LangC,
	".cc":       LangCPP,
	".cpp":      LangCPP,
	".cxx":      LangCPP,
	".hpp":      LangCPP,
	".hh":       LangCPP,
	".hxx":      LangCPP,
	".cs":       LangCSharp,
	".css":      LangCSS,
	".scss":     LangCSS,
	".less":     LangCSS,
	".dart":     LangDart,
	".vue":      LangVue,
	".svelte":   LangSvelte,
	".md":       LangMarkdown,
	".markdown": LangMarkdown,
}

// languageByName covers files known by their whole name.
var languageByName = map[string]string{
	"Rakefile": LangRuby, "Gemfile": LangRuby, "Guardfile": LangRuby, "Podfile": LangRuby,
}

// DetectLanguage names the language of a file from its path, or returns ""
// when rubi has no parser-level notion of it (the file is still indexed by
// name and content).
func DetectLanguage(p string) string {
	if l, ok := languageByName[path.Base(p)]; ok {
		return l
	}
	return languageByExt[strings.ToLower(path.Ext(p))]
}
