import { PrincipalSchema, type Principal } from "../shared/index.js";

/** The principal travels from the HTTP layer to handlers inside the SDK's `authInfo`. */
export function principalFromAuthInfo(authInfo: { extra?: Record<string, unknown> } | undefined): Principal | undefined {
  const parsed = PrincipalSchema.safeParse(authInfo?.extra?.principal);
  return parsed.success ? parsed.data : undefined;
}
