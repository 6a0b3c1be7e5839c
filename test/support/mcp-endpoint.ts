import { z } from "zod";
import { healthReport, startMcpListener, type Listener } from "../../src/http/index.js";
import { createMcpEndpoint, type McpEndpoint } from "../../src/mcp/index.js";
import { silentLogger, type Principal } from "../../src/shared/index.js";
import { defineTool, ok, ToolRegistry } from "../../src/tools/index.js";

/** Callers by token: the token is the principal's id. */
export const PRINCIPALS: Record<string, Principal> = {
  flood: { id: "flood", name: "Flood", kind: "user", isAdmin: false },
  calm: { id: "calm", name: "Calm", kind: "user", isAdmin: false },
};

export interface HeldEndpoint {
  mcpUrl: string;
  endpoint: McpEndpoint;
  /** Calls of ha_agent_hold that have started, and whether each saw its signal abort. */
  held: { aborted: boolean }[];
  /** Ends every ha_agent_hold call waiting now. */
  release(): void;
  close(): Promise<void>;
}

/**
 * The real MCP listener and endpoint over a registry of two tools:
 * `ha_agent_hold`, which runs until released or aborted, and `ha_agent_echo`,
 * which answers at once. Tokens are checked by a fake that knows PRINCIPALS.
 */
export async function startHeldEndpoint(options: { maxInFlightPerPrincipal?: number } = {}): Promise<HeldEndpoint> {
  const held: { aborted: boolean }[] = [];
  let gate = opened();
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: "hold",
      title: "Hold",
      description: "Reports progress once, then runs until the test releases it or the caller goes away.",
      input: z.object({}),
      output: z.object({ released: z.boolean() }),
      annotations: { readOnlyHint: true },
      invoke: async (_args, ctx) => {
        const call = { aborted: false };
        held.push(call);
        // Progress turns the answer into an event stream that stays open while the call runs.
        await ctx.progress({ progress: 0, message: "holding" });
        const aborted = new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
        await Promise.race([gate.promise, aborted]);
        call.aborted = ctx.signal.aborted;
        return ok({ released: !ctx.signal.aborted });
      },
    }),
  );
  registry.register(defineTool({ name: "echo", title: "Echo", description: "Answers at once.", input: z.object({ text: z.string() }), output: z.object({ text: z.string() }), annotations: { readOnlyHint: true }, invoke: async (args) => ok({ text: args.text }) }));
  const endpoint = createMcpEndpoint({ registry, info: { name: "held", version: "1" }, logger: silentLogger, ...options });
  const listener: Listener = await startMcpListener({
    host: "127.0.0.1",
    port: 0,
    verifier: { verify: async (token) => PRINCIPALS[token] },
    mcp: endpoint,
    health: () => healthReport([], 0, 0),
    logger: silentLogger,
  });
  return {
    mcpUrl: `http://127.0.0.1:${listener.port}/mcp`,
    endpoint,
    held,
    release() {
      gate.open();
      gate = opened();
    },
    async close() {
      await listener.close();
      await endpoint.close();
    },
  };
}

/** A promise and the function that settles it. */
function opened(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
