import { createHash, randomBytes } from "node:crypto";
import { SimulatorError } from "./errors.js";

export interface SimUser {
  id: string;
  name: string;
  isAdmin: boolean;
  tokens: string[];
  /** With `password`, lets the user sign in on `/auth/authorize` like a user of HA's own auth provider. */
  username?: string;
  password?: string;
}

/** Long-lived tokens and the HA users they belong to. */
export class UserStore {
  private readonly users: SimUser[] = [];

  constructor(initial: SimUser[] | undefined) {
    const list = initial && initial.length > 0 ? initial : [defaultAdmin()];
    for (const u of list) this.add(u);
  }

  add(user: SimUser): void {
    if (this.users.some((u) => u.id === user.id)) throw new SimulatorError("user_exists", `User ${user.id} already exists.`);
    this.users.push({ ...user, tokens: [...user.tokens] });
  }

  revokeToken(token: string): void {
    for (const u of this.users) u.tokens = u.tokens.filter((t) => t !== token);
  }

  byToken(token: string): SimUser | undefined {
    if (token === "") return undefined;
    return this.users.find((u) => u.tokens.includes(token));
  }

  /** A valid token of the user (the first user when no id is given), creating one if the user has none. */
  tokenFor(userId?: string): string {
    const user = userId === undefined ? this.users[0] : this.users.find((u) => u.id === userId);
    if (!user) throw new SimulatorError("user_not_found", `No simulator user with id ${userId}; add it with users.add().`);
    if (user.tokens.length === 0) user.tokens.push(newToken());
    return user.tokens[0] as string;
  }

  list(): readonly SimUser[] {
    return this.users;
  }
}

function newToken(): string {
  return haStyleToken();
}

/**
 * A token shaped like Home Assistant's long-lived access tokens: an HS256
 * JWT whose issuer is a refresh token id. With a label it is the same every
 * time, so tests can name users' tokens.
 */
export function haStyleToken(label?: string): string {
  const seed = label === undefined ? randomBytes(32) : createHash("sha256").update(label).digest();
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const header = part({ alg: "HS256", typ: "JWT" });
  const payload = part({ iss: seed.subarray(0, 16).toString("hex"), iat: 1767225600, exp: 2082585600 });
  return `${header}.${payload}.${createHash("sha256").update(seed).update("signature").digest("base64url")}`;
}

/** The admin a simulator has when it is given no users; the demo house's person.alex is this user. */
export const DEFAULT_ADMIN_ID = "9c3bd2c1e0f04e4b8a1b6f2f0e2d7a11";

/** How the default admin signs in on the simulator's login page. Demo credentials, published in the simulator's README. */
export const DEMO_LOGIN = { username: "alex", password: "linden-house" } as const;

/** The demo house's person (person.alex, who signs in as alex), named so that every screen says it is the demo's. */
export const DEMO_USER_NAME = "Alex (demo)";

export function defaultAdmin(token = newToken()): SimUser {
  return { id: DEFAULT_ADMIN_ID, name: DEMO_USER_NAME, isAdmin: true, tokens: [token], ...DEMO_LOGIN };
}

/** The line the login page shows while the default admin still has the published demo password. */
export function demoLoginHint(users: UserStore): string | undefined {
  const admin = users.list().find((u) => u.id === DEFAULT_ADMIN_ID);
  if (admin?.username !== DEMO_LOGIN.username || admin.password !== DEMO_LOGIN.password) return undefined;
  return `Simulated home: sign in as ${DEMO_LOGIN.username} with the password ${DEMO_LOGIN.password}.`;
}
