#!/usr/bin/env node
// Bundles the long-running program: dist/main.js, as tsc compiled it, is
// replaced by one file holding it and its dependencies without comments or
// whitespace, and the parts it loads later (a model's client, the time
// tools' work) become chunks beside it. V8 keeps the source text of every
// module it loads: as some 600 separate files with their comments they held
// about 5 MB of the settled heap, and the module records more. Names are
// kept, so a stack trace in a log still reads. The command-line tools in
// dist/ (fsck, model:check) stay as tsc wrote them. Demo mode's simulator and
// fake Gemini are workspace packages loaded by a name in a variable, which
// esbuild leaves alone: they are never part of the bundle.
// Run by `npm run build` after tsc.
import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
/** esbuild's chunk names: a name, a dash and an upper-case hash; tsc writes none like it. */
const CHUNK = /^[\w-]+-[A-Z0-9]{8}\.js$/;

export async function bundleProgram() {
  for (const file of readdirSync(dist)) if (CHUNK.test(file)) rmSync(join(dist, file));
  await build({
    entryPoints: { main: join(dist, "main.js") },
    outdir: dist,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    chunkNames: "[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node20",
    minifyWhitespace: true,
    minifySyntax: true,
    // The packages' licence notices stay, at the end of each file.
    legalComments: "eof",
    // CommonJS dependencies (ws, pino) require Node's own modules; an ES module has no require of its own.
    banner: { js: 'import { createRequire as __haAgentRequire } from "node:module"; const require = __haAgentRequire(import.meta.url);' },
    logLevel: "warning",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await bundleProgram();
