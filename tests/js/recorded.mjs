// Checks messages recorded from a real server against docs/schema (run by
// tests/server/test_server_schema.py): `node tests/js/recorded.mjs recorded.json` prints, as JSON,
// each message's problems against the schema of its direction ([] for a message that fits) and
// replays the page's own patch code over each patched client's messages.
import { readFileSync } from "node:fs";

import { JS } from "./page.js";
import { load, problems } from "./schema.js";

const { applyPatch } = await import(new URL("versions.js", JS));
const recorded = JSON.parse(readFileSync(process.argv[2], "utf8"));
const server = load("server");
const client = load("client");
const out = { server: [], client: [], patched: [] };
for (const text of recorded.server) out.server.push(problems(server, JSON.parse(text)));
for (const text of recorded.client) out.client.push(problems(client, JSON.parse(text)));
for (const messages of recorded.patched) {
  // the states the page holds after each message, as it would hold them
  let held = null;
  const states = [];
  for (const text of messages) {
    const message = JSON.parse(text);
    if (message.type === "state") held = message;
    else if (message.type === "patch") held = applyPatch(held, message);
    else continue;
    states.push(problems(server, held));
  }
  out.patched.push(states);
}
process.stdout.write(JSON.stringify(out));
