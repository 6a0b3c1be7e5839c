/**
 * Pings HA every `intervalMs` and calls `onTimeout` once if a pong is later
 * than `timeoutMs`. home-assistant-js-websocket has no heartbeat, so without
 * this a half-open TCP connection (HA frozen, a NAT dropping state) would look
 * connected forever. One heartbeat belongs to one socket: stop it when that
 * socket goes away and start a new one for the next.
 */
export function startHeartbeat(args: {
  intervalMs: number;
  timeoutMs: number;
  ping: () => Promise<unknown>;
  onTimeout: () => void;
}): { stop(): void } {
  let stopped = false;
  let pongTimer: NodeJS.Timeout | undefined;

  const tick = () => {
    if (stopped || pongTimer !== undefined) return;
    pongTimer = setTimeout(() => {
      if (stopped) return;
      stop();
      args.onTimeout();
    }, args.timeoutMs);
    pongTimer.unref();
    const answered = () => {
      clearTimeout(pongTimer);
      pongTimer = undefined;
    };
    // A lost connection rejects the ping; the reconnect logic owns that case.
    args.ping().then(answered, answered);
  };

  const interval = setInterval(tick, args.intervalMs);
  interval.unref();

  function stop() {
    stopped = true;
    clearInterval(interval);
    clearTimeout(pongTimer);
    pongTimer = undefined;
  }

  return { stop };
}
