import { request, type IncomingHttpHeaders } from "node:http";

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request to 127.0.0.1 with exactly the headers given, Host
 * included: what a browser sends after DNS rebinding (an attacker's name
 * pointing at this machine), which fetch would not let a test write.
 */
export function rawRequest(o: { port: number; path: string; host: string; method?: string; headers?: Record<string, string>; body?: string; address?: string }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: o.address ?? "127.0.0.1", port: o.port, path: o.path, method: o.method ?? "GET", setHost: false, headers: { host: o.host, ...o.headers } }, (res) => {
      // An event stream never ends: its status and headers are the answer.
      if (String(res.headers["content-type"]).startsWith("text/event-stream")) {
        res.destroy();
        return resolve({ status: res.statusCode ?? 0, headers: res.headers, body: "" });
      }
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(o.body);
  });
}
