import { z } from "zod";
import { callService, describeServices, ServiceNotFound } from "../services/index.js";
import { defineCommand, type Command } from "./command.js";
import { bool, compEntityIds, dict, str, stringList } from "./fields.js";

/** `cv.ENTITY_SERVICE_FIELDS`: the only keys a target may have. */
const Target = z.strictObject(
  { entity_id: compEntityIds().optional(), device_id: stringList().optional(), area_id: stringList().optional(), floor_id: stringList().optional(), label_id: stringList().optional() },
  { error: "expected a dictionary" },
);

export const serviceCommands: Command[] = [
  defineCommand("get_services", null, (conn, msg) => conn.sendResult(msg.id, describeServices(conn.ctx.home))),

  defineCommand(
    "call_service",
    { domain: str(), service: str(), service_data: dict().optional(), target: Target.optional(), return_response: bool().optional() },
    (conn, msg) => {
      let result;
      try {
        result = callService(conn.ctx.home, {
          domain: msg.domain,
          service: msg.service,
          serviceData: msg.service_data,
          target: msg.target,
          returnResponse: msg.return_response,
          userId: conn.user!.id,
        });
      } catch (err) {
        throw err instanceof ServiceNotFound ? err.asSeenBy(msg.domain, msg.service) : err;
      }
      // HA sends `response` only when it was asked for (handle_call_service).
      conn.sendResult(msg.id, msg.return_response ? { context: result.context, response: result.response } : { context: result.context });
    },
  ),
];
