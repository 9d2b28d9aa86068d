// Checks hand histories with the page's own fair.js (WebCrypto, as the browser runs it) and prints
// one verdict per hand as JSON, for tests/web/test_fair_js.py to compare with `teenpatti verify`:
//   node tests/web/fair.mjs teenpatti/web/static/js cases.json
// cases.json: [{"rules": {full table rules}, "history": {...}}, ...]
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const fair = await import(pathToFileURL(path.join(path.resolve(process.argv[2]), "fair.js")).href);
const cases = JSON.parse(readFileSync(process.argv[3], "utf-8"));
const out = [];
for (const { rules, history } of cases) out.push(await fair.checkHand(history, rules));
process.stdout.write(JSON.stringify(out));
