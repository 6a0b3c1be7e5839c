import { own } from "../common/index.js";
import type { HomeModel } from "../home.js";
import type { ServiceDef } from "./service.js";

const messageFields = {
  message: { description: "Message body of the notification.", required: true, example: "The garage door has been open for 10 minutes.", selector: { text: {} } },
  title: { description: "Title for your notification.", example: "Your Garage Door Friend", selector: { text: {} } },
  data: { description: "Some integrations provide extended functionality.", example: "platform specific", selector: { object: {} } },
};

const send = (name: string, description: string): ServiceDef => ({ name, description, fields: messageFields, run: () => undefined });

/**
 * Services without entities of their own: `persistent_notification.create`
 * (always there), `notify.notify`, and one `notify.mobile_app_<device>` per
 * phone a person is tracked with, as the Companion app registers them.
 */
export function entitylessServices(home: HomeModel, domain: string): Map<string, ServiceDef> | undefined {
  if (domain === "persistent_notification") {
    return new Map([
      ["create", send("Create", "Shows a notification on the notifications panel.")],
      ["dismiss", { name: "Dismiss", description: "Deletes a notification from the notifications panel.", fields: {}, run: () => undefined }],
    ]);
  }
  if (domain !== "notify") return undefined;
  const out = new Map<string, ServiceDef>([["notify", send("Send a notification with notify", "Sends a notification message using the notify service.")]]);
  for (const s of home.states()) {
    if (!s.entity_id.startsWith("person.")) continue;
    const trackers = own(s.attributes, "device_trackers");
    for (const t of Array.isArray(trackers) ? trackers : []) {
      const name = `mobile_app_${String(t).slice(String(t).indexOf(".") + 1)}`;
      out.set(name, send(`Send a notification via ${name}`, `Sends a notification message using the ${name} integration.`));
    }
  }
  return out;
}
