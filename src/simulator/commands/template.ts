import { renderTemplate, TemplateError, type RenderResult } from "../template.js";
import { CommandError, defineCommand, type Command } from "./command.js";
import { bool, dict, entityIds, float, str } from "./fields.js";

/**
 * `render_template` is a subscription in HA: the result message, then an
 * event with the rendering, and a new event whenever an entity it reads changes.
 */
export const renderTemplateCommand: Command = defineCommand(
  "render_template",
  { template: str(), entity_ids: entityIds().optional(), variables: dict().optional(), timeout: float().optional(), strict: bool().optional(), report_errors: bool().optional() },
  (conn, msg) => {
    const home = conn.ctx.home;
    const render = (): RenderResult => renderTemplate(msg.template, (id) => home.getState(id), msg.variables ?? {});
    let first: RenderResult;
    try {
      first = render();
    } catch (err) {
      if (err instanceof TemplateError) throw new CommandError("template_error", err.message);
      throw err;
    }
    const { id } = msg;
    let last = JSON.stringify(first.result);
    let watched = new Set(first.entities);
    const event = (r: RenderResult) => ({ result: r.result, listeners: { all: false, domains: [], entities: [...r.entities].sort(), time: false } });
    const unsub = home.bus.listen("state_changed", (ev) => {
      if (!ev.change || !watched.has(ev.change.entityId)) return;
      try {
        const r = render();
        watched = new Set(r.entities);
        const text = JSON.stringify(r.result);
        if (text === last) return;
        last = text;
        conn.sendEventJson(id, JSON.stringify(event(r)));
      } catch (err) {
        if (!(err instanceof TemplateError)) conn.ctx.logger.error({ err }, "render_template failed");
        else if (msg.report_errors) conn.sendEventJson(id, JSON.stringify({ error: err.message, level: "ERROR" }));
        // HA only logs a re-render error the client did not ask to hear about.
        else conn.ctx.logger.warn({ template: msg.template, error: err.message }, "template error");
      }
    });
    conn.addSubscription(id, unsub);
    conn.sendResult(id, null);
    conn.sendEventJson(id, JSON.stringify(event(first)));
  },
);
