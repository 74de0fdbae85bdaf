// Drives `rubi mcp` over stdio with the official MCP TypeScript SDK client,
// a client rubi did not write. Usage: node client.mjs RUBI PROJECT WORKDIR
//
// rubi starts in WORKDIR; the client's roots name PROJECT, so the calls
// land in PROJECT only if rubi asked for the roots. The script checks the
// answers itself, prints what it saw as one JSON object on stdout for the
// Go test to check again, and exits 1 on the first wrong answer.
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [rubi, project, workdir] = process.argv.slice(2);
if (!rubi || !project || !workdir) {
  console.error("usage: node client.mjs RUBI PROJECT WORKDIR");
  process.exit(2);
}

function check(ok, what, got) {
  if (!ok) {
    console.error(`sdkclient: ${what}; got: ${JSON.stringify(got, null, 2)}`);
    process.exit(1);
  }
}

const text = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("");

const transport = new StdioClientTransport({
  command: rubi,
  args: ["mcp", "--log-level", "info"],
  cwd: workdir,
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "sdkclient-test", version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
let rootsAsked = 0;
client.setRequestHandler(ListRootsRequestSchema, async () => {
  rootsAsked++;
  return { roots: [{ uri: pathToFileURL(project).href, name: "project" }] };
});

await client.connect(transport);
const seen = {
  server: client.getServerVersion(),
  instructions: client.getInstructions(),
};

const { tools } = await client.listTools();
seen.tools = tools.map((t) => t.name).sort();
check(seen.tools.join(",") === "context,memory,read,register", "tools/list", seen.tools);
for (const t of tools) {
  const a = t.annotations ?? {};
  // Only what differs from MCP's defaults is sent: every tool stays in
  // the project, a read-only one says so.
  check(a.openWorldHint === false && (t.name === "context" || t.name === "read") === (a.readOnlyHint === true), `annotations of ${t.name}`, a);
}

const registered = await client.callTool({
  name: "register",
  arguments: {
    nodes: [{
      type: "gotcha",
      title: "Open ignores a bad DSN",
      body: "store.Open returns nil whatever the DSN; the first query fails instead.",
      files: ["store/store.go"],
      symbols: ["Open"],
    }],
  },
});
seen.register = text(registered);
check(!registered.isError && seen.register.startsWith("created: gotcha-open-ignores-a-bad-dsn"), "register", registered);
check(registered.structuredContent?.results?.[0]?.action === "created", "register structured content", registered.structuredContent);

const found = await client.callTool({
  name: "context",
  arguments: { query: "why does a bad database address not fail at once", terms: ["dsn", "open", "connect"] },
});
seen.context = text(found);
check(!found.isError && seen.context.includes("Open ignores a bad DSN"), "context finds the node just registered", found);
const items = found.structuredContent?.items ?? [];
check(items.some((i) => i.id === "gotcha-open-ignores-a-bad-dsn") && items.some((i) => i.path === "store/store.go"), "context structured content", items);

const outside = await client.callTool({ name: "read", arguments: { target: "../../etc/passwd" } });
seen.outside = text(outside);
check(outside.isError === true, "read outside the project is an error result", outside);

seen.rootsAsked = rootsAsked;
check(rootsAsked >= 1, "rubi asked for the client's roots", rootsAsked);

await client.close();
console.log(JSON.stringify(seen));
