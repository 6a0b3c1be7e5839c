import { renderTemplate, TemplateError, TemplateTimeout, type RenderResult } from "../template/index.js";
import { CommandError, defineCommand, type Command } from "./command.js";
import { bool, dict, entityIds, float, str } from "./fields.js";

/** HA re-renders a template that reads the time once a minute (`event.py`, the `time` listener). */
const TIME_RERENDER_MS = 60_000;

/**
 * `render_template` (`websocket_api/commands.py`), a subscription open to
 * every user: the result message, then an event `{result, listeners}`, and a
 * new event whenever something the template reads changes (an entity, a
 * domain, any state, or the minute). A template that fails does not fail the
 * command: with `report_errors` the error arrives as an event
 * `{error, level: "ERROR"}`, warnings (an undefined name) as
 * `{error, level: "WARNING"}`; without it HA only logs them. With `timeout`,
 * a rendering that would take longer is refused as `template_error`
 * "Exceeded maximum execution time of <timeout>s".
 */
export const renderTemplateCommand: Command = defineCommand(
  "render_template",
  { template: str(), entity_ids: entityIds().optional(), variables: dict().optional(), timeout: float().optional(), strict: bool().optional(), report_errors: bool().optional() },
  (conn, msg) => {
    const home = conn.ctx.home;
    const { id } = msg;
    const warnings: string[] = [];
    const render = (timeoutMs?: number): RenderResult =>
      renderTemplate(msg.template, (e) => home.getState(e), msg.variables ?? {}, {
        nowMs: home.now(),
        timeZone: home.house.config.time_zone,
        strict: msg.strict ?? false,
        allStates: () => home.states(),
        timeoutMs,
        onWarning: (w) => warnings.push(w),
      });
    if (msg.timeout) {
      try {
        render(msg.timeout * 1000);
      } catch (err) {
        if (err instanceof TemplateTimeout) throw new CommandError("template_error", `Exceeded maximum execution time of ${msg.timeout}s`);
        if (!(err instanceof TemplateError)) throw err;
      }
    }
    let last: string | undefined;
    let watched: RenderResult | undefined;
    const emit = () => {
      warnings.length = 0;
      let r: RenderResult;
      try {
        r = render();
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        if (msg.report_errors) conn.sendEventJson(id, JSON.stringify({ error: err.message, level: "ERROR" }));
        else conn.ctx.logger.warn({ template: msg.template, error: err.message }, "template error");
        last = undefined;
        return;
      }
      if (msg.report_errors) for (const w of warnings) conn.sendEventJson(id, JSON.stringify({ error: w, level: "WARNING" }));
      watched = r;
      const text = JSON.stringify(r.result);
      if (text === last) return;
      last = text;
      const listeners = { all: r.all, entities: [...r.entities].sort(), domains: [...r.domains].sort(), time: r.time };
      conn.sendEventJson(id, JSON.stringify({ result: r.result, listeners }));
    };
    const unsub = home.bus.listen("state_changed", (ev) => {
      const entityId = ev.change?.entityId;
      if (!entityId || !watched) return;
      const domain = entityId.slice(0, entityId.indexOf("."));
      if (watched.all || watched.entities.includes(entityId) || watched.domains.includes(domain)) emit();
    });
    const timer = setInterval(() => {
      if (watched?.time) emit();
    }, TIME_RERENDER_MS);
    timer.unref();
    conn.addSubscription(id, () => {
      unsub();
      clearInterval(timer);
    });
    conn.sendResult(id, null);
    emit();
  },
);
