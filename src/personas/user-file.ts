import { basename, extname } from "node:path";
import { isNode, LineCounter, parseDocument } from "yaml";
import { UserPersonaFileSchema } from "./user-schema.js";
import { userPersona } from "./user-persona.js";
import type { PersonaSpec } from "./persona.js";

/** A file that could not become a persona: the one line a person reads to fix it. */
export interface PersonaFileProblem {
  file: string;
  line: number | undefined;
  field: string | undefined;
  message: string;
}

export type ParsedPersonaFile = { ok: true; spec: PersonaSpec; replaces: string | undefined } | { ok: false; problem: PersonaFileProblem };

/**
 * One persona file's text as a persona, or its first problem: YAML syntax
 * at its line, or a field the schema refuses, with the line of that field
 * (or of the nearest part of it that the file has).
 */
export function parsePersonaFile(path: string, text: string): ParsedPersonaFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const lineAt = (offset: number | undefined) => (offset === undefined ? undefined : lines.linePos(offset).line);
  const syntax = doc.errors[0];
  if (syntax) return { ok: false, problem: { file: path, line: lineAt(syntax.pos[0]), field: undefined, message: `not valid YAML: ${syntax.message.split("\n")[0]}` } };
  const parsed = UserPersonaFileSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // Unknown keys name themselves; the path stops at the object that holds them.
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
    const fieldPath = [...issue.path.map(String), ...keys.slice(0, 1)];
    let line: number | undefined;
    for (let depth = fieldPath.length; depth >= 0 && line === undefined; depth--) {
      const node = doc.getIn(fieldPath.slice(0, depth).map((p) => (/^\d+$/.test(p) ? Number(p) : p)), true);
      // A key's own line: its value's node may start on the next one (a block list or map).
      if (isNode(node)) line = lineAt(node.range?.[0]);
    }
    const field = fieldPath.length ? fieldPath.join(".") : undefined;
    return { ok: false, problem: { file: path, line, field, message: issue.message } };
  }
  const name = parsed.data.name ?? basename(path, extname(path));
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) {
    return { ok: false, problem: { file: path, line: undefined, field: "name", message: `the file's base name "${name}" is not a persona name; add a name: field (lowercase letters, digits and _)` } };
  }
  return { ok: true, spec: userPersona({ file: parsed.data, name, text }), replaces: parsed.data.replaces };
}

/** "personas/night.yaml line 7, arguments.0.type: …" */
export function describeProblem(p: PersonaFileProblem): string {
  return `${p.file}${p.line !== undefined ? ` line ${p.line}` : ""}${p.field ? `, ${p.field}` : ""}: ${p.message}`;
}
