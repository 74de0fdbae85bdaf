// Starts the server of an unpacked rubi.mcpb the way Claude Desktop does,
// and talks to it with the official MCP TypeScript SDK client.
// Usage: node desktop.mjs EXTENSION CWD [VAULT]
//
// The command comes from the bundle's manifest through
// getMcpConfigForManifest, the function of @anthropic-ai/mcpb that Claude
// Desktop uses (platform_overrides, ${__dirname}, ${/}, ${user_config.*});
// VAULT is the user's choice of vault folder, none when left out. The
// server starts in CWD, standing in for Desktop's unspecified working
// directory. Two conversations, one connection each: the first lists the
// tools and registers a preference, the second looks it up. The script
// prints what it saw as one JSON object for the Go test to check.
import { readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { homedir } from "node:os";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [extension, cwd, vault] = process.argv.slice(2);
if (!extension || !cwd) {
  console.error("usage: node desktop.mjs EXTENSION CWD [VAULT]");
  process.exit(2);
}

const manifest = JSON.parse(readFileSync(join(extension, "manifest.json"), "utf8"));
const home = homedir();
const config = await getMcpConfigForManifest({
  manifest,
  extensionPath: extension,
  systemDirs: { HOME: home, DESKTOP: join(home, "Desktop"), DOCUMENTS: join(home, "Documents"), DOWNLOADS: join(home, "Downloads") },
  userConfig: vault === undefined ? {} : { vault },
  pathSeparator: sep,
});
if (!config) {
  console.error("getMcpConfigForManifest gave no configuration");
  process.exit(1);
}

const text = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("");

async function conversation(run) {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...process.env, ...(config.env ?? {}) },
    cwd,
    stderr: "inherit",
  });
  const client = new Client({ name: "desktop-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

const seen = { command: config.command, args: config.args };
await conversation(async (client) => {
  seen.server = client.getServerVersion();
  seen.instructions = client.getInstructions();
  const { tools } = await client.listTools();
  seen.tools = tools.map((t) => t.name).sort();
  const registered = await client.callTool({
    name: "register",
    arguments: { nodes: [{ type: "preference", title: "I like practical examples", body: "Show a worked example before the theory." }] },
  });
  seen.register = { text: text(registered), isError: registered.isError === true, structured: registered.structuredContent ?? null };
});
await conversation(async (client) => {
  const found = await client.callTool({
    name: "context",
    arguments: { query: "look up my preferences", terms: ["preference", "like", "examples"] },
  });
  seen.context = { text: text(found), isError: found.isError === true };
});
console.log(JSON.stringify(seen));
