/** A tool's success as MCP carries it: the structured result, and the same JSON as text for clients that read only text. */
export function structuredResult(value: Record<string, unknown>): { content: [{ type: "text"; text: string }]; structuredContent: Record<string, unknown> } {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** A tool's failure: the message, which says what to do, and its stable code. */
export function errorResult(code: string, message: string): { isError: true; content: [{ type: "text"; text: string }] } {
  return { isError: true, content: [{ type: "text", text: `${message} (${code})` }] };
}
