// Builds the page into bot/web/static/ and records the hash of every source file in build.json,
// so that a Python test (tests/web/test_web_build.py) can tell when the shipped build is stale.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const out = join(here, "..", "static");

function sha256(path) {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.name !== "node_modules")
    .flatMap((entry) => (entry.isDirectory() ? sources(join(dir, entry.name)) : [join(dir, entry.name)]));
}

const common = { bundle: true, minify: true, legalComments: "none", logLevel: "warning", charset: "utf8" };
await build({ ...common, entryPoints: [join(here, "src", "main.ts")], outfile: join(out, "app.js"), format: "iife", target: "es2020" });
await build({ ...common, entryPoints: [join(here, "src", "app.css")], outfile: join(out, "app.css") });
copyFileSync(join(here, "index.html"), join(out, "index.html"));

const record = { sources: {}, outputs: {} };
for (const path of sources(here).sort()) {
  record.sources[relative(here, path)] = sha256(path);
}
for (const name of ["app.css", "app.js", "index.html"]) {
  record.outputs[name] = sha256(join(out, name));
}
writeFileSync(join(out, "build.json"), JSON.stringify(record, null, 2) + "\n");
