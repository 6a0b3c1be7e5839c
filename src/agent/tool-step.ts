import type { ToolCall, ToolResult } from "../models/index.js";
import { linkedSignal } from "../shared/index.js";
import { usageOf, type OpenCall } from "./replay.js";
import { runToolCalls } from "./tool-runner.js";
import type { Turn } from "./turn.js";

/** The code the model reads on a call refused because the turn's tool-call budget ran out. */
const BUDGET_REFUSAL = "budget_exhausted";

/** Runs a step's open calls and queues every result for the next model call. */
export async function answerCalls(turn: Turn, args: { step: number; calls: readonly ToolCall[]; open: OpenCall[]; answered: Map<number, ToolResult> }): Promise<void> {
  const { step, open } = args;
  const { options, counters } = turn;
  turn.emit({ type: "progress", message: `Step ${step}: calling ${open.map((c) => c.call.name).join(", ")}` });
  const started = options.clock.now();
  let waited = 0;
  // A shutdown ends a wait for a person at once; the turn goes on waiting after the restart.
  // Not AbortSignal.any: the drain signal lives as long as the runtime, and Node 20 never forgets a dependant of it.
  const wait = options.approvals && options.drain ? linkedSignal([turn.stop, options.drain]) : undefined;
  const results = await runToolCalls({
    continuationId: options.continuationId,
    step,
    calls: open,
    tools: turn.toolMap,
    journal: turn.journal,
    signal: turn.stop,
    clock: options.clock,
    describeUnknownOutcome: options.describeUnknownOutcome,
    onResult: (result) => turn.emit({ type: "step", step: { type: "tool_result", number: step, detail: { step, name: result.name, isError: result.isError } } }),
    ...(options.approvals ? { approvals: options.approvals, waitSignal: wait?.signal ?? turn.stop } : {}),
    onWaited: (ms) => (waited += ms),
    onExpired: (request) => (turn.expiredApproval = request),
    onParked: () => (turn.parked = true),
    // The calls of this step count once they are asked, as they will when the step is done.
    spent: () => usageOf({ ...counters, toolCalls: counters.toolCalls + open.filter((c) => !c.intent).length }),
  }).finally(() => wait?.release());
  counters.toolCalls += open.filter((c) => !c.intent).length;
  // Time spent waiting for a person is not the turn's work: the time budget does not count it.
  counters.activeMs += Math.max(0, options.clock.now() - started - waited);
  queueResults(turn, args.calls, new Map([...args.answered, ...results]));
}

/** Every call of a model turn gets an answer, or the next request would be malformed. */
export async function refuseCalls(turn: Turn, step: number, open: OpenCall[]): Promise<void> {
  const results = new Map<number, ToolResult>();
  const message = `Not run: the turn may make at most ${turn.options.budgets.maxToolCalls} tool calls. Answer with what you have.`;
  for (const { index, call } of open) {
    const result: ToolResult = { callId: call.id, name: call.name, output: { error: { code: BUDGET_REFUSAL, message } }, isError: true };
    await turn.journal.append({ type: "tool_result", detail: { step, index, result, durationMs: 0 } });
    results.set(index, result);
  }
  queueResults(turn, open.map((c) => c.call), results);
}

/** Results wait in the ToolCallManifest register until the next model call takes them. */
function queueResults(turn: Turn, calls: readonly ToolCall[], results: Map<number, ToolResult>): void {
  calls.forEach((call, i) => {
    const r = results.get(i);
    if (r) turn.options.context.add("tool_call_manifest", { callId: r.callId, name: r.name, params: call.args, output: r.output, isError: r.isError });
  });
}

/** Hands the queued results to the conversation, once. */
export function deliverManifest(turn: Turn): void {
  const manifest = turn.options.context.consume("tool_call_manifest");
  if (manifest.length) turn.items.push({ type: "tool_results", results: manifest.map((m) => ({ callId: m.callId, name: m.name, output: m.output as ToolResult["output"], isError: m.isError })) });
}
