import { createRequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import { principalFromAuthInfo } from "../principal.js";

/**
 * What an approval's `requestState` names: the tool that asked, the turn and
 * the approval. Signed, not encrypted: the client can read it, and there is
 * nothing secret in it.
 */
export const ApprovalStateSchema = z.object({ tool: z.string(), continuation_id: z.string(), approval_id: z.string() });
export type ApprovalState = z.infer<typeof ApprovalStateSchema>;

/**
 * How long a minted state is honoured. The approval's own expiry is what
 * ends the wait; the state only has to outlive it, across a restart too.
 */
export const APPROVAL_STATE_TTL_S = 24 * 3_600;

export interface ApprovalStateCodec {
  mint(state: ApprovalState, ctx: ServerContext): Promise<string>;
  /** `ServerOptions.requestState.verify`: throws on a forged, altered, expired or foreign state, which the SDK answers with -32602. */
  verify(wire: string, ctx: ServerContext): Promise<ApprovalState>;
}

/**
 * HMAC-SHA256 request states bound to the caller: one minted for one
 * principal fails verification when another echoes it. `key` is at least
 * 32 bytes; `ttlSeconds` is for tests.
 */
export function createApprovalStateCodec(options: { key: Uint8Array; ttlSeconds?: number }): ApprovalStateCodec {
  const codec = createRequestStateCodec<ApprovalState>({
    key: options.key,
    ttlSeconds: options.ttlSeconds ?? APPROVAL_STATE_TTL_S,
    // The method too, so a state can only come back on the request kind that minted it.
    bind: (ctx) => `${ctx.mcpReq.method}\0${principalFromAuthInfo(ctx.http?.authInfo)?.id ?? ""}`,
  });
  return {
    mint: (state, ctx) => codec.mint(state, ctx),
    verify: async (wire, ctx) => ApprovalStateSchema.parse(await codec.verify(wire, ctx)),
  };
}
