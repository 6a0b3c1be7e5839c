import { DateTime, fail, isPlainObject, PyFloat, str, TimeDelta, typeName } from "./values.js";

/** Methods templates call on values: Python's str, dict, datetime and timedelta methods HA templates use. */
export function callMethod(m: { method: string; self: unknown }, args: unknown[]): unknown {
  const self = m.self;
  if (typeof self === "string") {
    switch (m.method) {
      case "lower": return self.toLowerCase();
      case "upper": return self.toUpperCase();
      case "strip": return self.trim();
      case "split": return args.length > 0 ? self.split(str(args[0])) : self.trim().split(/\s+/).filter(Boolean);
      case "startswith": return self.startsWith(str(args[0]));
      case "endswith": return self.endsWith(str(args[0]));
      case "replace": return self.split(str(args[0])).join(str(args[1]));
      case "title": return self.replace(/\b\w/g, (c) => c.toUpperCase());
      case "capitalize": return self.charAt(0).toUpperCase() + self.slice(1).toLowerCase();
    }
  }
  if (isPlainObject(self)) {
    switch (m.method) {
      case "get": return Object.hasOwn(self, str(args[0])) ? self[str(args[0])] : (args[1] ?? null);
      case "items": return Object.entries(self);
      case "keys": return Object.keys(self);
      case "values": return Object.values(self);
    }
  }
  if (self instanceof DateTime) {
    switch (m.method) {
      case "isoformat": return self.iso();
      case "timestamp": return new PyFloat(self.ms / 1000);
      case "weekday": return self.parts().weekday;
      case "isoweekday": return self.parts().weekday + 1;
      case "strftime": return strftime(self, str(args[0]));
    }
  }
  if (self instanceof TimeDelta && m.method === "total_seconds") return new PyFloat(self.ms / 1000);
  return fail("UndefinedError", `'${typeName(self)} object' has no attribute '${m.method}'`);
}

const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The common `strftime` codes. */
export function strftime(d: DateTime, format: string): string {
  const p = d.parts();
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const codes = new Map<string, string>(Object.entries({
    Y: String(p.year), m: pad(p.month), d: pad(p.day), H: pad(p.hour), M: pad(p.minute), S: pad(p.second), y: pad(p.year % 100),
    I: pad(((p.hour + 11) % 12) + 1), p: p.hour < 12 ? "AM" : "PM", A: DAY_NAMES[p.weekday]!, a: DAY_NAMES[p.weekday]!.slice(0, 3),
    B: MONTH_NAMES[p.month - 1]!, b: MONTH_NAMES[p.month - 1]!.slice(0, 3), f: pad((d.ms % 1000) * 1000, 6), "%": "%",
    z: d.iso().slice(-6).replace(":", ""),
  }));
  return format.replace(/%([A-Za-z%])/g, (all, c: string) => codes.get(c) ?? all);
}
