import type { Capability } from "./capabilities.ts";

/** Who is making a request, however they proved it. */
export interface Principal {
  userId: number;
  login: string;
  capabilities: Capability[];
  via: "application_password" | "session" | "ticket_system";
  /** The ticket system's staff id of a staff user (design 10.1), null otherwise. */
  staffId: number | null;
}
