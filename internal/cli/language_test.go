package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// language = "ja" in rubi.hcl makes the command line Japanese whatever the
// locale; --json stays as it is in every language.
func TestCommandLineInJapanese(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("RUBI_VAULT", "")
	t.Setenv("LANG", "fr_FR.UTF-8")
	root := rubitest.Project(t, rubitest.GoProject)
	if err := os.WriteFile(filepath.Join(root, "rubi.hcl"), []byte("language = \"ja\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runRubi(t, "--root", root, "register", "--type", "gotcha", "--title", "Open needs a DSN", "--body", "An empty DSN panics.", "--file", "store/store.go")
	if code != 0 || !strings.HasPrefix(out, "作成: gotcha-open-needs-a-dsn (") {
		t.Errorf("register: exit %d:\n%s%s", code, out, errOut)
	}
	code, out, errOut = runRubi(t, "--root", root, "status")
	for _, want := range []string{"rubiの状態: " + root, "知識: プロジェクトにノード1件、うち有効1件(1 gotcha; 1 medium)", "インデックス: ", "最終アクセス: ノードgotcha-open-needs-a-dsnの書き込み("} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("status lacks %q: exit %d:\n%s%s", want, code, out, errOut)
		}
	}
	code, out, _ = runRubi(t, "--root", root, "config", "check")
	if code != 0 || !strings.Contains(out, "の設定は正常です\n") || !strings.Contains(out, "\n言語: ja(rubi.hclのlanguage)\n") {
		t.Errorf("config check: exit %d:\n%s", code, out)
	}
	code, out, _ = runRubi(t, "--root", root, "register", "--json", "--type", "gotcha", "--title", "Open needs a DSN", "--body", "Also an empty one.")
	var res []struct {
		Action string `json:"action"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || len(res) != 1 || res[0].Action != "merged" {
		t.Errorf("register --json: exit %d, %v:\n%s", code, err, out)
	}
}

// Under LANG=pt_BR.UTF-8, with no language setting, the command line
// speaks Portuguese; an error it prints too.
func TestCommandLineFollowsTheLocale(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LANG", "pt_BR.UTF-8")
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, errOut := runRubi(t, "--root", root, "index")
	if code != 0 || !strings.HasPrefix(out, "6 arquivos indexados em "+root) || !strings.Contains(out, "  linguagens: go 3, javascript 2, other 1\n") {
		t.Errorf("index: exit %d:\n%s%s", code, out, errOut)
	}
	code, out, _ = runRubi(t, "--root", root, "nodes")
	if code != 0 || out != "nenhum nó de conhecimento ainda: `rubi register` guarda alguns\n" {
		t.Errorf("nodes: exit %d: %q", code, out)
	}
	code, _, errOut = runRubi(t, "--root", filepath.Join(root, "main.go"), "status")
	if code != 1 || !strings.Contains(errOut, "main.go: não é uma pasta") {
		t.Errorf("--root FILE: exit %d: %s", code, errOut)
	}
	// LC_ALL=C over a Portuguese LANG: English.
	t.Setenv("LC_ALL", "C")
	if code, out, _ := runRubi(t, "--root", root, "nodes"); code != 0 || !strings.HasPrefix(out, "no knowledge nodes yet") {
		t.Errorf("LC_ALL=C: exit %d: %q", code, out)
	}
}

// rubi graph and rubi plugins speak French under a French locale; their
// --json does not change.
func TestGraphAndPluginsInFrench(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LANG", "fr_FR.UTF-8")
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, errOut := runRubi(t, "--root", root, "graph")
	if code != 0 || !strings.HasPrefix(out, "6 fichiers, ") || !strings.Contains(out, " entre fichiers du projet, ") {
		t.Errorf("graph: exit %d:\n%s%s", code, out, errOut)
	}
	code, out, errOut = runRubi(t, "--root", root, "plugins")
	if code != 0 || !strings.HasPrefix(out, "TYPE    NOM               VERSION   UTILISÉ  S'EXÉCUTE EN\n") || !strings.Contains(out, "  oui      intégré (dans le processus)\n") {
		t.Errorf("plugins: exit %d:\n%s%s", code, out, errOut)
	}
	code, out, _ = runRubi(t, "--root", root, "plugins", "--json")
	if code != 0 || !strings.Contains(out, `"in_pipeline": true`) || strings.Contains(out, "intégré") {
		t.Errorf("plugins --json: exit %d:\n%s", code, out)
	}
}

// In Japanese, rubi plugins keeps its columns: a wide character takes two.
func TestPluginsColumnsInJapanese(t *testing.T) {
	var b strings.Builder
	printPlugins(&b, messages.Japanese, []pluginRow{{Kind: "rank", Name: "bm25", Version: "1.0", Builtin: true, InPipeline: true}})
	want := "種類    名前              バージョン  使用  実行形態\nrank    bm25              1.0         はい  組み込み(同一プロセス)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// rubi map and rubi map MODULE write the map's headings and labels in
// Japanese; the stored map and --json stay English.
func TestMapInJapanese(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LANG", "ja_JP.UTF-8")
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, errOut := runRubi(t, "--root", root, "map")
	if code != 0 || !strings.Contains(out, "のマップ\n") || !strings.Contains(out, "## モジュール(中心的な順)\n") || strings.Contains(out, "Central files") {
		t.Errorf("map: exit %d:\n%s%s", code, out, errOut)
	}
	if data, err := os.ReadFile(filepath.Join(root, ".rubi", "map.md")); err != nil || !strings.HasPrefix(string(data), "# Map of ") {
		t.Errorf(".rubi/map.md: %v\n%s", err, data)
	}
	code, out, _ = runRubi(t, "--root", root, "map", "--json")
	if code != 0 || !strings.Contains(out, "# Map of ") {
		t.Errorf("map --json: exit %d:\n%s", code, out)
	}
	code, out, errOut = runRubi(t, "--root", root, "map", "--no-refresh", "store")
	if code != 0 || !strings.HasPrefix(out, "# モジュール store\n") || !strings.Contains(out, "## ファイル(中心的な順)\n") {
		t.Errorf("map store: exit %d:\n%s%s", code, out, errOut)
	}
}

// rubi install says what it wrote, and what to do next, in French.
func TestInstallInFrench(t *testing.T) {
	installHome(t)
	t.Setenv("LANG", "fr_FR.UTF-8")
	code, out, errOut := runRubi(t, "install")
	for _, want := range []string{"~/.claude/settings.json (créé)\n  env.CLAUDE_CODE_AUTO_COMPACT_WINDOW = \"150000\"\n", "~/rubi-vault (le coffre) : créé\n", "Ouvrez une nouvelle session Claude Code pour l'appliquer. Pour annuler : rubi install --undo\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("install lacks %q: exit %d:\n%s%s", want, code, out, errOut)
		}
	}
	if code, out, _ = runRubi(t, "install"); code != 0 || out != "rien à changer\n" {
		t.Errorf("second run: exit %d: %q", code, out)
	}
	code, out, _ = runRubi(t, "install", "--json")
	if code != 0 || !strings.Contains(out, `"dry_run": false`) || strings.Contains(out, "changer") {
		t.Errorf("install --json: exit %d:\n%s", code, out)
	}
}

// rubi connect in a Japanese project: the dry run, the list, Claude Code's
// pointer.
func TestConnectInJapanese(t *testing.T) {
	installHome(t)
	t.Setenv("CODEX_HOME", "")
	root := rubitest.Project(t, map[string]string{"main.go": "package main\n", "rubi.hcl": "language = \"ja\"\n"})
	code, out, errOut := runRubi(t, "--root", root, "connect", "codex", "--dry-run")
	if code != 0 || !strings.Contains(out, "+[mcp_servers.rubi]") || !strings.HasSuffix(out, "ドライラン: 何も書き込んでいません\n") {
		t.Errorf("dry run: exit %d:\n%s%s", code, out, errOut)
	}
	code, out, _ = runRubi(t, "--root", root, "connect", "--list")
	for _, want := range []string{"エージェント(プロジェクトの設定。もう一方は--global):\n", "codex       Codex CLI: 未接続\n", "            自動(フック): なし\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--list lacks %q: exit %d:\n%s", want, code, out)
		}
	}
	if code, out, _ = runRubi(t, "--root", root, "connect", "claude"); code != 0 || !strings.HasPrefix(out, "Claude Code: rubiのプラグインをインストール") {
		t.Errorf("connect claude: exit %d: %q", code, out)
	}
}

// rubi audit in a Japanese project: its headings and labels; --json stays
// English.
func TestAuditInJapanese(t *testing.T) {
	root := rubitest.Project(t, map[string]string{
		"rubi.hcl":  "language = \"ja\"\n",
		"CLAUDE.md": "# App\n" + strings.Repeat("- Never commit secrets.\n", 3),
	})
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	code, out, errOut := runRubi(t, "audit", "--days", "0", root)
	for _, want := range []string{"rubi audit: " + root + "、各エージェントが最初のメッセージの前に読み込むもの\n", "\nClaude Code: メッセージごとに約", "  CLAUDE.md  ", "  指示\n", "\nCodex: プロジェクトやホームからは何もありません\n", "\n移すものはありません: "} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("audit lacks %q: exit %d:\n%s%s", want, code, out, errOut)
		}
	}
	code, out, _ = runRubi(t, "audit", "--json", "--days", "0", root)
	if code != 0 || !strings.Contains(out, `"kind": "instructions"`) || strings.Contains(out, "指示") {
		t.Errorf("audit --json: exit %d:\n%s", code, out)
	}
}

// rubi xray and rubi xray simulate speak French under a French locale,
// numbers and paths as they are; --json does not change.
func TestXrayInFrench(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LANG", "fr_FR.UTF-8")
	fixtures := rubitest.XrayFixtures(t)
	code, out, errOut := runRubi(t, "xray", "--transcripts", fixtures, "--days", "0")
	for _, want := range []string{"rubi xray : tous les journaux. 3 sessions dans 2 projets (claude-code 2, codex 1), 13 appels d'API.\n", "\nConstats\n", "  Contexte chargé avant le premier message (médiane)  ", "\nSessions les plus coûteuses\n", "  coût  part  date  ", "Simulateur de compaction : ", "\nrubi xray simulate explique la simulation ; "} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("xray lacks %q: exit %d:\n%s%s", want, code, out, errOut)
		}
	}
	code, out, _ = runRubi(t, "xray", "--transcripts", fixtures, "--days", "0", "--json")
	if code != 0 || !strings.Contains(out, `"sessions": 3`) || strings.Contains(out, "Constats") {
		t.Errorf("xray --json: exit %d:\n%s", code, out)
	}
}

// In Japanese the simulator's tables keep their columns.
func TestXraySimulateInJapanese(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LANG", "ja_JP.UTF-8")
	fixtures := rubitest.XrayFixtures(t)
	code, out, errOut := runRubi(t, "xray", "simulate", "--transcripts", fixtures, "--days", "0", "--thresholds", "100k,250k")
	for _, want := range []string{"各セッションのコンテキストを呼び出しごとに再生します。", "  しきい値  ウィンドウ切替  セッション  コスト  節約  \n  100k      1               1           ", "\n最もコストの高いセッション(しきい値ごとの節約)\n", "(切替1回)"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("simulate lacks %q: exit %d:\n%s%s", want, code, out, errOut)
		}
	}
}

// What rubi says on stderr while it indexes is in the project's language.
func TestIndexingInJapanese(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LANG", "ja_JP.UTF-8")
	root := rubitest.Project(t, rubitest.GoProject)
	setSlowIndex(t, 0)
	code, _, errOut := runRubi(t, "context", "open the database", "--root", root, "--json")
	if code != 0 || !strings.HasPrefix(errOut, "rubi: "+root+"をインデックス中…(初回は全ファイルを読み、次回からは変更分だけを読みます)\n") || !strings.Contains(errOut, "rubi: 6ファイルを") {
		t.Errorf("exit %d: stderr:\n%s", code, errOut)
	}
}
