import type { ServerResponse } from "node:http";

export function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body), ...headers });
  res.end(body);
}
