import { z } from "zod";
import { describeError } from "../shared/index.js";
import { SupervisorRequestError } from "./errors.js";

/**
 * The fields of `/addons/self/info` this program reads. `network` maps each
 * container port ("8808/tcp") to the host port the person published it on,
 * null when they turned it off; `dns` holds the host name's other forms.
 */
const SelfInfoSchema = z.object({
  slug: z.string(),
  hostname: z.string().min(1),
  dns: z.array(z.string()).catch([]).default([]),
  network: z.record(z.string(), z.number().int().nullable()).nullable().catch(null).default(null),
});
/** `/network/info`: the host's interfaces; the primary one carries its address on the home network. */
const NetworkInfoSchema = z.object({
  interfaces: z.array(z.object({ primary: z.boolean().catch(false), ipv4: z.object({ address: z.array(z.string()).catch([]) }).nullable().catch(null) })),
});
/** `/core/info`: the port and scheme Home Assistant serves browsers on the host. */
const CoreInfoSchema = z.object({ port: z.number().int(), ssl: z.boolean() });
const AnnouncedSchema = z.object({ uuid: z.string().min(1) });
const AnswerSchema = z.object({ result: z.string(), data: z.unknown().optional(), message: z.string().optional() });

export type SelfInfo = z.infer<typeof SelfInfoSchema>;
export type NetworkInfo = z.infer<typeof NetworkInfoSchema>;
export type CoreInfo = z.infer<typeof CoreInfoSchema>;

export interface SupervisorClient {
  selfInfo(): Promise<SelfInfo>;
  /** Needs `hassio_api` in config.yaml, as every `/…/info` beyond the add-on's own does. */
  networkInfo(): Promise<NetworkInfo>;
  coreInfo(): Promise<CoreInfo>;
  /** Offers a service to Home Assistant; the Supervisor keeps one entry per add-on and service, and answers its uuid. */
  announce(o: { service: string; config: Record<string, unknown> }): Promise<string>;
  /** Withdraws an offer; `gone` when the Supervisor no longer had it. */
  withdraw(uuid: string): Promise<"withdrawn" | "gone">;
}

const TIMEOUT_MS = 10_000;

/** The Supervisor's REST API as this add-on uses it, with its token, answers checked against their schemas. */
export function createSupervisorClient(o: { url: string; token: string; fetch?: typeof fetch }): SupervisorClient {
  const doFetch = o.fetch ?? fetch;

  async function request(method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
    let response: Response;
    try {
      response = await doFetch(`${o.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${o.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new SupervisorRequestError(`the Supervisor (${o.url}) could not be reached: ${describeError(err)}`, { cause: err });
    }
    const text = await response.text();
    const answer = AnswerSchema.safeParse(safeJson(text));
    if (!response.ok) {
      const said = answer.success && answer.data.message ? `: ${answer.data.message}` : text && text.length < 200 ? `: ${text.trim()}` : "";
      throw new SupervisorRequestError(`the Supervisor answered ${method} ${path} with HTTP ${response.status}${said}`, { status: response.status });
    }
    if (!answer.success) throw new SupervisorRequestError(`the Supervisor's answer to ${method} ${path} is not the JSON it sends`, { status: response.status });
    return { status: response.status, data: answer.data.data };
  }

  function parse<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new SupervisorRequestError(`the Supervisor's answer to ${what} lacks ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`);
    return parsed.data;
  }

  return {
    selfInfo: async () => parse(SelfInfoSchema, (await request("GET", "/addons/self/info")).data, "/addons/self/info"),
    networkInfo: async () => parse(NetworkInfoSchema, (await request("GET", "/network/info")).data, "/network/info"),
    coreInfo: async () => parse(CoreInfoSchema, (await request("GET", "/core/info")).data, "/core/info"),
    announce: async ({ service, config }) => parse(AnnouncedSchema, (await request("POST", "/discovery", { service, config })).data, "POST /discovery").uuid,
    withdraw: async (uuid) => {
      try {
        await request("DELETE", `/discovery/${encodeURIComponent(uuid)}`);
        return "withdrawn";
      } catch (err) {
        if (err instanceof SupervisorRequestError && err.status === 404) return "gone";
        throw err;
      }
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
