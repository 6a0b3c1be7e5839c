#!/usr/bin/env node
// Bundles the console (web/) into dist/web: one hashed script and one hashed
// stylesheet, each with gzip and brotli copies, and manifest.json naming them.
// Run by `npm run build`; nothing is fetched at run time.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "web");

export async function buildWeb() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "assets"), { recursive: true });
  const result = await build({
    entryPoints: { app: join(root, "web", "src", "main.ts"), style: join(root, "web", "src", "page.css") },
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    outdir: join(out, "assets"),
    entryNames: "[name]-[hash]",
    metafile: true,
    legalComments: "none",
    tsconfig: join(root, "web", "tsconfig.json"),
    logLevel: "warning",
  });
  const outputs = Object.keys(result.metafile.outputs);
  const find = (ext) => outputs.find((o) => o.endsWith(ext) && !o.endsWith(".map"));
  const manifest = { js: `assets/${basename(find(".js"))}`, css: `assets/${basename(find(".css"))}` };
  const sizes = {};
  for (const file of Object.values(manifest)) {
    const raw = readFileSync(join(out, file));
    const gz = gzipSync(raw, { level: 9 });
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    writeFileSync(join(out, `${file}.gz`), gz);
    writeFileSync(join(out, `${file}.br`), br);
    sizes[file] = { raw: raw.length, gzip: gz.length, br: br.length };
  }
  // The icon a browser asks for at every load, whether the page names it or not.
  copyFileSync(join(root, "web", "assets", "favicon.ico"), join(out, "favicon.ico"));
  writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 2));
  return { manifest, sizes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { sizes } = await buildWeb();
  const total = Object.values(sizes).reduce((n, s) => n + s.gzip, 0);
  if (process.argv.includes("--sizes")) console.log(JSON.stringify(sizes, null, 2));
  console.error(`console built: ${(total / 1024).toFixed(1)} KB of JS and CSS, gzip`);
}
