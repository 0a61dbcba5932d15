import type { Capability } from "./capabilities.ts";

/** Who is making a request, however they proved it. */
export interface Principal {
  /** The platform user; null for an agent the ticket system vouches for who has none (design 10.1: staff data is keyed by staff id). */
  userId: number | null;
  login: string;
  capabilities: Capability[];
  via: "application_password" | "session" | "ticket_system";
  /** The ticket system's staff id of a staff user (design 10.1), null otherwise. */
  staffId: number | null;
}

/** A principal that is a platform user (sign-in, application passwords, sessions). */
export type UserPrincipal = Principal & { userId: number };
