import { WebSocket } from "ws";

/**
 * A bare WebSocket client for protocol tests: it records every frame and
 * flattens coalesced arrays, so tests can await messages one by one.
 */
export class RawClient {
  readonly frames: string[] = [];
  private readonly messages: unknown[] = [];
  private waiters: { pred: (m: unknown) => boolean; resolve: (m: unknown) => void }[] = [];
  private closedResolve!: (code: number) => void;
  readonly closed: Promise<number>;

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => (this.closedResolve = resolve));
    socket.on("message", (data) => {
      const text = data.toString();
      this.frames.push(text);
      const parsed: unknown = JSON.parse(text);
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) this.push(m);
    });
    socket.on("close", (code) => this.closedResolve(code));
  }

  static async connect(url: string): Promise<RawClient> {
    const socket = new WebSocket(url);
    const client = new RawClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return client;
  }

  /** Connects and authenticates; resolves after `auth_ok`. */
  static async authed(url: string, token: string): Promise<RawClient> {
    const c = await RawClient.connect(url);
    await c.next(); // auth_required
    c.send({ type: "auth", access_token: token });
    const ok = (await c.next()) as { type: string };
    if (ok.type !== "auth_ok") throw new Error(`expected auth_ok, got ${JSON.stringify(ok)}`);
    return c;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** The next message, in order. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  next(timeoutMs = 5000): Promise<any> {
    return this.until(() => true, timeoutMs);
  }

  /** The first message matching `pred`; messages that do not match stay queued for later calls. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  until(pred: (m: any) => boolean, timeoutMs = 5000): Promise<any> {
    const index = this.messages.findIndex(pred);
    if (index >= 0) return Promise.resolve(this.messages.splice(index, 1)[0]);
    return new Promise((resolve, reject) => {
      const waiter = { pred, resolve: (m: unknown) => {
        clearTimeout(timer);
        resolve(m);
      } };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error("no message within timeout"));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends a command and waits for its result message. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async command(message: { id: number; type: string } & Record<string, unknown>): Promise<any> {
    this.send(message);
    return this.until((m: { id?: number; type?: string }) => m.id === message.id && m.type === "result");
  }

  pending(): number {
    return this.messages.length;
  }

  close(): void {
    this.socket.terminate();
  }

  private push(m: unknown): void {
    const index = this.waiters.findIndex((w) => w.pred(m));
    if (index < 0) {
      this.messages.push(m);
      return;
    }
    const [waiter] = this.waiters.splice(index, 1);
    waiter!.resolve(m);
  }
}
