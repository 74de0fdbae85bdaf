package resolve

import (
	"testing"

	"github.com/rubi-dev/rubi/core"
)

func phpProject(t *testing.T) *Project {
	return project(t, map[string]string{
		"composer.json": `{
  "autoload": {"psr-4": {"App\\": "src/", "Shared\\": ["shared/a/", "shared/b/"]}, "psr-0": {"Legacy_": "old/"}},
  "autoload-dev": {"psr-4": {"App\\Tests\\": "tests/"}}
}`,
		"src/Kernel.php":                   "",
		"src/Models/User.php":              "",
		"src/Http/Controller.php":          "",
		"shared/b/Money.php":               "",
		"old/Legacy/Db/Conn.php":           "",
		"tests/UserTest.php":               "",
		"public/index.php":                 "",
		"config/app.php":                   "",
		"bootstrap.php":                    "",
		"lib/Acme/Helpers/Str.php":         "",
		"packages/billing/composer.json":   `{"autoload": {"psr-4": {"App\\": "src/"}}}`,
		"packages/billing/src/Kernel.php":  "",
		"packages/billing/src/Invoice.php": "",
		"weird/place.php":                  "",
	})
}

func TestPHP(t *testing.T) {
	p := phpProject(t)
	noWarnings(t, p)
	const php, req = core.LangPHP, core.ImportRequire
	ctrl := "src/Http/Controller.php"
	runKindCases(t, p, nil, []kindCase{
		{"psr-4", ctrl, php, "", `App\Models\User`, []string{"src/Models/User.php"}, 0},
		{"leading backslash", ctrl, php, "", `\App\Models\User`, []string{"src/Models/User.php"}, 0},
		{"alias", ctrl, php, "", `App\Models\User as U`, []string{"src/Models/User.php"}, 0},
		{"psr-4 list of directories", ctrl, php, "", `Shared\Money`, []string{"shared/b/Money.php"}, 0},
		{"autoload-dev", ctrl, php, "", `App\Tests\UserTest`, []string{"tests/UserTest.php"}, 0},
		{"psr-0 with underscores", ctrl, php, "", `Legacy_Db_Conn`, []string{"old/Legacy/Db/Conn.php"}, 0},
		{"own composer.json first", "packages/billing/src/Invoice.php", php, "", `App\Kernel`, []string{"packages/billing/src/Kernel.php"}, 0},
		{"root composer.json for root files", ctrl, php, "", `App\Kernel`, []string{"src/Kernel.php"}, 0},
		{"monorepo package by prefix", ctrl, php, "", `App\Invoice`, []string{"packages/billing/src/Invoice.php"}, 0},
		{"namespace suffix fallback", ctrl, php, "", `Acme\Helpers\Str`, []string{"lib/Acme/Helpers/Str.php"}, 0},
		{"missing autoloaded class", ctrl, php, "", `App\Models\Nope`, nil, unresolved},
		{"function import", ctrl, php, "", `function Acme\Helpers\Str`, []string{"lib/Acme/Helpers/Str.php"}, 0},
		{"group use", ctrl, php, "", `App\{Models\User, Kernel as K}`, []string{"src/Kernel.php", "src/Models/User.php"}, 0},
		{"group use, one missing", ctrl, php, "", `App\Models\{User, Nope}`, []string{"src/Models/User.php"}, 0},
		{"group use of a vendor", ctrl, php, "", `Symfony\Component\{Console, Yaml}`, nil, external},
		{"vendor class", ctrl, php, "", `Symfony\Component\HttpFoundation\Request`, nil, external},
		{"global class", ctrl, php, "", `Exception`, nil, external},
		{"require relative", "public/index.php", php, req, "../bootstrap.php", []string{"bootstrap.php"}, 0},
		{"require __DIR__", "public/index.php", php, req, "__DIR__/../config/app.php", []string{"config/app.php"}, 0},
		{"require from root", "public/index.php", php, req, "config/app.php", []string{"config/app.php"}, 0},
		{"require missing", "public/index.php", php, req, "nope.php", nil, unresolved},
		{"require vendor autoload", "public/index.php", php, req, "__DIR__/../vendor/autoload.php", nil, external},
		{"include path without kind", "public/index.php", php, "", "../bootstrap.php", []string{"bootstrap.php"}, 0},
	})
}

func TestPHPFacts(t *testing.T) {
	p := phpProject(t)
	fx := p.indexFacts([]core.FileFacts{
		{Path: "weird/place.php", Language: core.LangPHP, Package: `Vendorish\Tools`,
			Symbols: []core.Symbol{{Name: "Widget", Kind: core.SymbolClass}, {Name: "helper", Kind: core.SymbolFunction}}},
		{Path: "lib/Acme/Helpers/Str.php", Language: core.LangPHP, Package: `Other\Ns`},
	})
	runKindCases(t, p, fx, []kindCase{
		{"declared class", "src/Kernel.php", core.LangPHP, "", `Vendorish\Tools\Widget`, []string{"weird/place.php"}, 0},
		{"declared function", "src/Kernel.php", core.LangPHP, "", `Vendorish\Tools\helper`, []string{"weird/place.php"}, 0},
		{"declared namespace is internal", "src/Kernel.php", core.LangPHP, "", `Vendorish\Tools\Nope`, nil, unresolved},
		{"a file with another namespace is not a suffix match", "src/Kernel.php", core.LangPHP, "", `Acme\Helpers\Str`, nil, external},
	})
}

func TestPHPMalformedComposer(t *testing.T) {
	p := project(t, map[string]string{"composer.json": "{", "a.php": ""})
	if w := p.Warnings(); len(w) != 1 || w[0].File != "composer.json" {
		t.Errorf("warnings = %v", w)
	}
}
