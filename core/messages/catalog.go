package messages

// The messages, by key. Each entry has its four texts side by side:
// English, Portuguese (Brazil), French, Japanese. A message that takes
// arguments is a fmt format; every language uses the same verbs for the
// same arguments (TestCatalog).
//
// Keep them short: the hooks' texts are injected into the agent's
// context, and the MCP server's instructions and tool descriptions are
// sent with every message an agent makes (server.CostLimit holds them in
// every language). Names the agent or the user types — tools, arguments,
// actions, commands, flags, files — stay as they are.
const (
	// The MCP server: instructions, tool and argument descriptions.
	ToolInstructions Key = iota
	ToolVaultInstructions
	ToolContext
	ToolContextTerms
	ToolRegister
	ToolMap
	ToolRead
	ToolProjects
	ToolMemory
	ToolMemoryText
	ToolMemoryEntity
	ToolMemorySince
	ToolMemoryTypos
	ToolXray
	ToolXrayDays

	// rubi mcp --cost.
	CostLine
	CostOver
	CostOverXray

	numKeys
)

var catalog = [numKeys]text{
	ToolInstructions: {
		en: `rubi holds this project's code map and what past sessions learned.
- Start with map; call context with terms before exploring files.
- register what you learn, with its files.
- Before the context fills, save a memory handoff; after a reset, read the last.`,
		pt: `rubi guarda o mapa do código do projeto e o que sessões passadas aprenderam.
- Comece com map; chame context com terms antes de explorar arquivos.
- Salve o que aprender com register, com seus arquivos.
- Antes que o contexto encha, salve um handoff com memory; após um reset, leia o último.`,
		fr: `rubi garde la carte du code du projet et les acquis des sessions passées.
- Commencez par map ; appelez context avec terms avant d'explorer les fichiers.
- Enregistrez vos acquis et leurs fichiers avec register.
- Avant saturation du contexte, sauvegardez un handoff (memory) ; après un reset, lisez le dernier.`,
		ja: `rubiはコードマップと過去の知見を持ちます。
- 最初にmap、探索の前にterms付きでcontext。
- 知見はファイル付きでregister。
- コンテキストが埋まる前にmemoryでhandoff、リセット後はlastを読む。`,
	},
	ToolVaultInstructions: {
		en: `rubi is the user's personal memory: preferences, decisions and notes kept across conversations.
- Before answering about the user or past work, call context with terms: synonyms, related words.
- When the user asks you to remember something, or states a lasting preference, register it.
- In a long conversation, save a memory handoff; in a new one, read the last.`,
		pt: `rubi é a memória pessoal do usuário: preferências, decisões e notas guardadas entre conversas.
- Antes de responder sobre o usuário ou trabalhos passados, chame context com terms: sinônimos, palavras afins.
- Quando o usuário pedir para lembrar algo, ou declarar uma preferência duradoura, use register.
- Numa conversa longa, salve um handoff com memory; numa nova, leia o último.`,
		fr: `rubi est la mémoire personnelle de l'utilisateur : préférences, décisions et notes gardées d'une conversation à l'autre.
- Avant de répondre sur l'utilisateur ou un travail passé, appelez context avec terms : synonymes, mots liés.
- Quand l'utilisateur vous demande de retenir quelque chose, ou exprime une préférence durable, utilisez register.
- Dans une longue conversation, sauvegardez un handoff avec memory ; dans une nouvelle, lisez le dernier.`,
		ja: `rubiはユーザー個人の記憶で、会話をまたいで好み、決定、メモを保ちます。
- ユーザーや過去の作業について答える前に、terms(同義語、関連語)付きでcontextを呼びます。
- 覚えるよう頼まれた時や、続く好みが示された時はregisterします。
- 長い会話ではmemoryでhandoffを保存し、新しい会話では最後のものを読みます。`,
	},
	ToolContext: {
		en: "Search the project's code and stored knowledge within a token budget; each item says why.",
		pt: "Busca no código e no conhecimento do projeto, num orçamento de tokens; cada item diz por quê.",
		fr: "Recherche le code et les connaissances du projet dans un budget de tokens ; chaque élément dit pourquoi.",
		ja: "コードと知識をトークン予算内で検索、各項目に理由付き。",
	},
	ToolContextTerms: {
		en: "synonyms, related words, likely identifiers",
		pt: "sinônimos, palavras afins, identificadores prováveis",
		fr: "synonymes, mots liés, identifiants probables",
		ja: "同義語、関連語、識別子の候補",
	},
	ToolRegister: {
		en: `Save what you learned, with its files; same title merges. summaries: of "map" or "module:NAME" ("" removes). retract: hide wrong nodes (hard: delete).`,
		pt: `Salva o que aprendeu, com seus arquivos; mesmo título mescla. summaries: de "map" ou "module:NAME" ("" remove). retract: oculta nós errados (hard: apaga).`,
		fr: `Enregistre vos acquis avec leurs fichiers ; même titre : fusion. summaries : de "map" ou "module:NAME" ("" supprime). retract : masque les nœuds erronés (hard : supprime).`,
		ja: `知見をファイル付きで保存、同題名は統合。summaries: "map"か"module:NAME"の要約(""で削除)。retract: 誤ったノードを隠す(hard: 削除)。`,
	},
	ToolMap: {
		en: "Project map: modules, central files, dependencies; with module: its files, exports, imports.",
		pt: "Mapa do projeto: módulos, arquivos centrais, dependências; com module: seus arquivos, exports, imports.",
		fr: "Carte du projet : modules, fichiers centraux, dépendances ; avec module : ses fichiers, exports, imports.",
		ja: "マップ: モジュール、中心ファイル、依存関係。moduleでそのファイル、export、import。",
	},
	ToolRead: {
		en: "Read a node (id or title), chunk:ID[:START-END], or path[:LINE or :START-END].",
		pt: "Lê um nó (id ou título), chunk:ID[:START-END] ou path[:LINE ou :START-END].",
		fr: "Lit un nœud (id ou titre), chunk:ID[:START-END] ou path[:LINE ou :START-END].",
		ja: "ノード(IDか題名)、chunk:ID[:START-END]、path[:LINEか:START-END]を読む。",
	},
	ToolProjects: {
		en: "List the open projects; pass one as project to other tools.",
		pt: "Lista os projetos abertos; passe um como project às outras ferramentas.",
		fr: "Liste les projets ouverts ; passez-en un comme project aux autres outils.",
		ja: "開いたプロジェクト一覧(projectに渡す)。",
	},
	ToolMemory: {
		en: "Conversation memory: save, grep, list chunks; handoff: where work stands (last reads it); retention previews archiving, retain runs it; status: overview.",
		pt: "Memória das conversas: save, grep, list de trechos; handoff: onde o trabalho está (last o lê); retention prevê o arquivamento, retain o faz; status: visão geral.",
		fr: "Mémoire des conversations : save, grep, list de fragments ; handoff : l'état du travail (last le lit) ; retention : aperçu de l'archivage, retain le fait ; status : bilan.",
		ja: "会話の記憶: save・grep・list、handoff(作業の現状、lastで読む)、retention(アーカイブ予告)、retain(実行)、status(概要)。",
	},
	ToolMemoryText: {
		en: "save: the chunk; grep: a regexp; handoff: ## Goal, Done, In progress, Next, Files",
		pt: "save: o trecho; grep: uma regexp; handoff: ## Goal, Done, In progress, Next, Files",
		fr: "save : le fragment ; grep : une regexp ; handoff : ## Goal, Done, In progress, Next, Files",
		ja: "save: 本文、grep: 正規表現、handoff: ## Goal, Done, In progress, Next, Files",
	},
	ToolMemoryEntity: {
		en: "file, function, ticket…",
		pt: "arquivo, função, ticket…",
		fr: "fichier, fonction, ticket…",
		ja: "ファイル、関数等",
	},
	ToolMemorySince: {
		en: "2026-11-01 or 7d",
		pt: "2026-11-01 ou 7d",
		fr: "2026-11-01 ou 7d",
		ja: "2026-11-01や7d",
	},
	ToolMemoryTypos: {
		en: "grep: words, N typos each",
		pt: "grep: palavras, N erros cada",
		fr: "grep : mots, N fautes chacun",
		ja: "grep: 語ごとの誤字数",
	},
	ToolXray: {
		en: "Where the user's agent sessions spent tokens; the compaction threshold that saves most. Only when asked.",
		pt: "Onde as sessões de agente do usuário gastaram tokens; o limite de compactação que mais economiza. Só se pedido.",
		fr: "Où les sessions d'agent ont dépensé leurs tokens, et le seuil de compaction le plus économe. Sur demande.",
		ja: "セッションのトークン消費先と最も節約する圧縮しきい値。依頼時のみ。",
	},
	ToolXrayDays: {
		en: "default 30, 0 all",
		pt: "padrão 30, 0 todos",
		fr: "30 par défaut, 0 tous",
		ja: "既定30、0で全期間",
	},

	CostLine: {
		en: "fixed cost: ~%d tokens in every message (limit %d), in %s",
		pt: "custo fixo: ~%d tokens em cada mensagem (limite %d), em %s",
		fr: "coût fixe : ~%d tokens dans chaque message (limite %d), en %s",
		ja: "固定コスト(%[3]s): メッセージごとに約%[1]dトークン(上限%[2]d)",
	},
	CostOver: {
		en: "rubi: the fixed cost is over its limit of %d tokens",
		pt: "rubi: o custo fixo passa do limite de %d tokens",
		fr: "rubi : le coût fixe dépasse sa limite de %d tokens",
		ja: "rubi: 固定コストが上限の%dトークンを超えています",
	},
	CostOverXray: {
		en: "; the xray tool adds %d of them: leave out --xray to save them",
		pt: "; a ferramenta xray soma %d deles: deixe --xray de fora para economizá-los",
		fr: " ; l'outil xray en ajoute %d : retirez --xray pour les économiser",
		ja: "。うち%dはxrayツールの分です: --xrayを外すと節約できます",
	},
}

// The counted nouns: the one and other forms of each language.
const (
	NounFile Noun = iota

	numNouns
)

var nouns = [numNouns]forms{
	NounFile: {
		en: [2]string{"%d file", "%d files"},
		pt: [2]string{"%d arquivo", "%d arquivos"},
		fr: [2]string{"%d fichier", "%d fichiers"},
		ja: [2]string{"%d ファイル", "%d ファイル"},
	},
}
