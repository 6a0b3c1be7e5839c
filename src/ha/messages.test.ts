import { describe, expect, it } from "vitest";
import { callServiceMessage, historyMessage, logbookMessage, renderTemplateMessage, statisticsMessage } from "./messages.js";

describe("message builders", () => {
  it("maps call_service arguments to snake_case and drops unset fields", () => {
    expect(
      callServiceMessage({ domain: "light", service: "turn_on", serviceData: { brightness: 10 }, target: { entity_id: "light.a" }, returnResponse: true }),
    ).toEqual({ type: "call_service", domain: "light", service: "turn_on", service_data: { brightness: 10 }, target: { entity_id: "light.a" }, return_response: true });
    expect(callServiceMessage({ domain: "scene", service: "turn_on" })).toEqual({ type: "call_service", domain: "scene", service: "turn_on" });
  });

  it("sends history dates as ISO strings", () => {
    const start = new Date(Date.UTC(2026, 0, 1, 12));
    const end = new Date(Date.UTC(2026, 0, 2, 12));
    expect(historyMessage({ startTime: start, endTime: end, entityIds: ["sensor.t"], minimalResponse: true, noAttributes: true, significantChangesOnly: false })).toEqual({
      type: "history/history_during_period",
      start_time: "2026-01-01T12:00:00.000Z",
      end_time: "2026-01-02T12:00:00.000Z",
      entity_ids: ["sensor.t"],
      minimal_response: true,
      no_attributes: true,
      significant_changes_only: false,
    });
  });

  it("builds logbook and statistics requests", () => {
    const start = new Date(Date.UTC(2026, 0, 1));
    expect(logbookMessage({ startTime: start, deviceIds: ["d1"] })).toEqual({ type: "logbook/get_events", start_time: "2026-01-01T00:00:00.000Z", device_ids: ["d1"] });
    expect(statisticsMessage({ startTime: start, statisticIds: ["sensor.e"], period: "hour", types: ["mean"] })).toEqual({
      type: "recorder/statistics_during_period",
      start_time: "2026-01-01T00:00:00.000Z",
      statistic_ids: ["sensor.e"],
      period: "hour",
      types: ["mean"],
    });
  });

  it("asks HA to report template errors", () => {
    expect(renderTemplateMessage({ template: "{{ 1 }}", variables: { x: 1 } })).toEqual({ type: "render_template", template: "{{ 1 }}", variables: { x: 1 }, report_errors: true });
    // HA's timeout is in seconds.
    expect(renderTemplateMessage({ template: "{{ 1 }}", timeoutMs: 2_500 })).toMatchObject({ timeout: 2.5 });
  });
});
