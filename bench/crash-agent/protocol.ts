/** The owner of every session the agent crash test makes. */
export const OWNER = { id: "crash-agent-owner", name: "Crash test", kind: "user" as const, isAdmin: true };
export const GEMINI_KEY = "AIzaCrashTestKey0000000000000000000000";
export const MODEL = "gemini-3.5-flash";

/** "crash turn 1203" → 1203. */
export function turnNumber(message: string): number | undefined {
  const m = /crash turn (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}
