import { readFileSync } from "node:fs";
import { errnoOf } from "./errors.js";

/** Who a process is, beyond its pid: enough to tell it from a later process given the same pid. */
export interface ProcessIdentity {
  /** The kernel's id of this boot (/proc/sys/kernel/random/boot_id); another value means the machine restarted since. */
  bootId?: string;
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat, field 22); a reused pid has another. */
  startTicks?: string;
}

/** What the data-directory lock asks about processes; a seam, so tests can play two processes in one. */
export interface ProcessProbe {
  /** This process's pid. */
  readonly pid: number;
  /** The identity of `pid`, or undefined when no such process runs (zombies count as gone). */
  identify(pid: number): ProcessIdentity | undefined;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    // No /proc (macOS, a locked-down container): the pid alone has to do.
    return undefined;
  }
}

/** Fields of /proc/<pid>/stat after the command name, which may itself hold spaces and parentheses. */
function statFields(pid: number): string[] | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  const end = stat?.lastIndexOf(")") ?? -1;
  return stat && end > 0 ? stat.slice(end + 2).split(" ") : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, under another user.
    return errnoOf(err) !== "ESRCH";
  }
}

/** The probe of the real machine: signal 0 for liveness, /proc for identity where Linux has it. */
export function systemProcessProbe(pid: number = process.pid): ProcessProbe {
  const bootId = readProc("/proc/sys/kernel/random/boot_id")?.trim() || undefined;
  return {
    pid,
    identify(target) {
      if (!Number.isSafeInteger(target) || target <= 0 || !isRunning(target)) return undefined;
      const fields = statFields(target);
      // State Z (zombie) or X (dead): killed, only not yet reaped by its parent.
      if (fields?.[0] === "Z" || fields?.[0] === "X") return undefined;
      // Field 22 of the line is the 20th after the command name (fields 1 and 2 are pid and name).
      const startTicks = fields?.[19];
      return { ...(bootId ? { bootId } : {}), ...(startTicks ? { startTicks } : {}) };
    },
  };
}
