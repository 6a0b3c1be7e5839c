import { z } from "zod";
import { callService, describeServices } from "../services/index.js";
import { EmptySchema, defineCommand, type Command } from "./command.js";

const idList = z.union([z.string(), z.array(z.string())]);

export const serviceCommands: Command[] = [
  defineCommand("get_services", EmptySchema, (conn, msg) => conn.sendResult(msg.id, describeServices(conn.ctx.home))),

  defineCommand(
    "call_service",
    z.object({
      domain: z.string().min(1),
      service: z.string().min(1),
      service_data: z.record(z.string(), z.unknown()).optional(),
      target: z
        .object({ entity_id: idList.optional(), device_id: idList.optional(), area_id: idList.optional(), floor_id: idList.optional(), label_id: idList.optional() })
        .optional(),
      return_response: z.boolean().optional(),
    }),
    (conn, msg) => {
      const result = callService(conn.ctx.home, {
        domain: msg.domain,
        service: msg.service,
        serviceData: msg.service_data,
        target: msg.target,
        returnResponse: msg.return_response,
        userId: conn.user!.id,
      });
      conn.sendResult(msg.id, result);
    },
  ),
];
