/**
 * `npm run bench:tools`: what each tool costs a model and a caller. The whole
 * program runs in-process against the simulated demo house over real
 * sockets, and an MCP client lists the tools and calls each one that has a
 * typical call (typical-calls.ts) many times. Prints, per tool, the tokens
 * its declaration takes in tools/list, and for the calls the tokens of the
 * result and the median and p95 latency; then /mcp's definitions against
 * their target (definitions.ts); writes bench-results/tools.json.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { estimateTokens } from "../../src/models/index.js";
import { connectClient, startStack } from "../../test/support/stack.js";
import { DEFINITIONS_TARGET, definitionTokens, outputSchemaTokens } from "./definitions.js";
import { TYPICAL_CALLS } from "./typical-calls.js";

const WARMUP = 3;
const CALLS = 30;
/** What Home Assistant's conversation agents may be given at /mcp/assist: a small local model's context holds HA's own prompt too. */
const ASSIST_MAX_TOOLS = 8;
const ASSIST_MAX_TOKENS = 2_000;

const tokens = (value: unknown): number => estimateTokens(JSON.stringify(value));
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

interface Row {
  tool: string;
  declarationTokens: number;
  withOutputSchemaTokens: number;
  resultTokens?: number;
  medianMs?: number;
  p95Ms?: number;
  error?: string;
}

async function main(): Promise<void> {
  const stack = await startStack();
  try {
    const { tools } = await stack.client.listTools();
    const rows: Row[] = tools.map((t) => ({
      tool: t.name,
      // As tools/list's budget counts it: what a model reads to choose a tool.
      declarationTokens: definitionTokens(t),
      // All tools/list carries for the tool: title, annotations and output schema too.
      withOutputSchemaTokens: tokens(t),
    }));
    const served = new Set(tools.map((t) => t.name));
    const earlier = new Map<string, Record<string, unknown>>();
    for (const [tool, typical] of TYPICAL_CALLS) {
      if (!served.has(tool)) continue;
      const args = typeof typical === "function" ? typical(earlier) : typical;
      const row = rows.find((r) => r.tool === tool)!;
      if (!args) {
        row.error = "skipped: what it needs from an earlier call was not there";
        continue;
      }
      const times: number[] = [];
      let last: Awaited<ReturnType<typeof stack.client.callTool>> | undefined;
      for (let i = 0; i < WARMUP + CALLS; i++) {
        const started = performance.now();
        last = await stack.client.callTool({ name: tool, arguments: args });
        if (i >= WARMUP) times.push(performance.now() - started);
      }
      const text = (last!.content as { type: string; text: string }[]).find((c) => c.type === "text")?.text ?? "";
      if (last!.isError) row.error = text;
      else earlier.set(tool, last!.structuredContent as Record<string, unknown>);
      Object.assign(row, { resultTokens: estimateTokens(text), medianMs: median(times), p95Ms: p95(times) });
    }

    const average = rows.reduce((s, r) => s + r.declarationTokens, 0) / rows.length;
    const pad = (s: string | number, n: number) => String(s).padStart(n);
    console.log(`tool${" ".repeat(30)}declaration  +output schema   result   median      p95`);
    for (const r of rows) {
      const call = r.medianMs === undefined ? "" : `${pad(r.resultTokens!, 8)} ${pad(r.medianMs.toFixed(1), 7)} ms ${pad(r.p95Ms!.toFixed(1), 6)} ms`;
      console.log(`${r.tool.padEnd(34)}${pad(r.declarationTokens, 11)} ${pad(r.withOutputSchemaTokens, 15)} ${call}${r.error ? `  (${r.error.slice(0, 80)})` : ""}`);
    }
    const definitions = rows.reduce((s, r) => s + r.declarationTokens, 0);
    const assist = await assistFigures(stack.mcpUrl, stack.token);
    const definitionsPass = definitions <= DEFINITIONS_TARGET;
    const assistPass = assist.tools.length <= ASSIST_MAX_TOOLS && assist.definitionTokens <= ASSIST_MAX_TOKENS;
    const pass = definitionsPass && assistPass;
    const outputs = tools.reduce((s, t) => s + outputSchemaTokens(t), 0);
    console.log(
      `${definitionsPass ? "✔" : "✘"}  /mcp tools/list: ${rows.length} tools, ${definitions} tokens of definitions (target ≤ ${DEFINITIONS_TARGET}), ${average.toFixed(0)} per tool on average; output schemas ${outputs} more, ${tokens({ tools })} in all (${JSON.stringify({ tools }).length} characters)`,
    );
    console.log(
      `${assistPass ? "✔" : "✘"}  /mcp/assist tools/list: ${assist.tools.length} tools (target ≤ ${ASSIST_MAX_TOOLS}), ${assist.definitionTokens} tokens of definitions (target ≤ ${ASSIST_MAX_TOKENS}), ${((100 * assist.definitionTokens) / definitions).toFixed(0)}% of /mcp's: ${assist.tools.map((t) => `${t.name} ${t.tokens}`).join(", ")}`,
    );
    console.log(`      results: the text content's tokens (the project's estimate, 4 characters a token); latency over MCP, ${CALLS} calls after ${WARMUP} warm-up calls`);
    await mkdir("bench-results", { recursive: true });
    const out = join(process.cwd(), "bench-results", "tools.json");
    await writeFile(out, `${JSON.stringify({ at: new Date().toISOString(), averageDeclarationTokens: average, definitionTokens: definitions, definitionsTarget: DEFINITIONS_TARGET, outputSchemaTokens: outputs, assist, rows }, null, 2)}\n`);
    console.log(`written to ${out}`);
    if (!pass) process.exitCode = 1;
  } finally {
    await stack.close();
  }
}

/** The tools Home Assistant's conversation agents see, each with what a model reads of it. */
async function assistFigures(mcpUrl: string, token: string): Promise<{ tools: { name: string; tokens: number }[]; definitionTokens: number }> {
  const client = await connectClient(`${mcpUrl}/assist`, token, "auto");
  try {
    const listed = (await client.listTools()).tools.map((t) => ({ name: t.name, tokens: definitionTokens(t) }));
    return { tools: listed, definitionTokens: listed.reduce((s, t) => s + t.tokens, 0) };
  } finally {
    await client.close();
  }
}

await main();
