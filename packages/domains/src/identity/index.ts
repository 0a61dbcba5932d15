export { parseCapabilities, type Capability } from "./capabilities.ts";
export type { Principal } from "./principal.ts";
export { SessionStore } from "./sessions.ts";
export { administratorExists, changeCapabilities, createAppPasswordFor, createUser, revokeAppPassword, setLoginPassword, verifyAppPassword } from "./users.ts";
export { resumeSession, signIn } from "./sign-in.ts";
export { checkTicketStaff, claimTicketStaffSignature, ticketStaffSignature, verifyTicketStaff } from "./ticket-staff.ts";
export { rotateTicketBridgeSecret } from "./ticket-bridge-secret.ts";
