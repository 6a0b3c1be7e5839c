import { join } from "node:path";
import { checkId } from "./ids.js";

/**
 * The /data layout. Every id is checked here, so no caller can build a path
 * from an unchecked string.
 */
export class Layout {
  constructor(readonly dataDir: string) {}

  get sessionsDir(): string {
    return join(this.dataDir, "sessions");
  }
  get artifactsDir(): string {
    return join(this.dataDir, "artifacts");
  }
  get quarantineDir(): string {
    return join(this.dataDir, "quarantine");
  }
  /** Daily usage that outlives the turns (usage-ledger.ts). */
  get usageFile(): string {
    return join(this.dataDir, "usage.json");
  }
  /** Temp files of atomic writes live here, so boot clears them with one readdir. */
  get tmpDir(): string {
    return join(this.dataDir, "tmp");
  }

  sessionDir(sessionId: string): string {
    return join(this.sessionsDir, checkId("session", sessionId));
  }
  sessionFile(sessionId: string): string {
    return join(this.sessionDir(sessionId), "session.json");
  }
  turnsDir(sessionId: string): string {
    return join(this.sessionDir(sessionId), "turns");
  }
  logsDir(sessionId: string): string {
    return join(this.sessionDir(sessionId), "logs");
  }
  turnFile(sessionId: string, contId: string): string {
    return join(this.turnsDir(sessionId), `${checkId("continuation", contId)}.json`);
  }
  logFile(sessionId: string, contId: string): string {
    return join(this.logsDir(sessionId), `${checkId("continuation", contId)}.log`);
  }
  artifactFile(artifactId: string): string {
    return join(this.artifactsDir, checkId("artifact", artifactId));
  }
  artifactMetaFile(artifactId: string): string {
    return join(this.artifactsDir, `${checkId("artifact", artifactId)}.meta.json`);
  }
}
