import { text } from "node:stream/consumers";
import { errors } from "@mw/platform/core";
import { randomToken } from "@mw/platform/crypto";
import { changeCapabilities, createAppPasswordFor, createUser, parseCapabilities, revokeAppPassword, rotateTicketBridgeSecret, setLoginPassword } from "@mw/domains/identity";
import type { Command } from "./command.ts";

function capabilitiesOf(value: string | boolean | undefined) {
  try {
    return parseCapabilities(String(value));
  } catch (error) {
    throw errors.invalidInput((error as Error).message);
  }
}

function staffIdOf(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const staffId = Number(value);
  if (!(Number.isInteger(staffId) && staffId > 0)) throw errors.invalidInput("--staff-id must be a positive whole number");
  return staffId;
}

/** A password from stdin (piped, never on the command line where `ps` shows it) or a generated one. */
async function passwordFrom(values: Record<string, string | boolean | undefined>): Promise<{ password: string; generated: boolean }> {
  if (values.stdin) return { password: (await text(process.stdin)).replace(/\r?\n$/, ""), generated: false };
  return { password: randomToken(18), generated: true };
}

export const userCommands: Record<string, Command> = {
  "user:create": {
    options: {
      login: { type: "string", required: true, description: "login name" },
      capabilities: { type: "string", required: true, description: "comma-separated: manage_middleware, manage_options, staff" },
      name: { type: "string", description: "name of the first application password (default cli)" },
      "staff-id": { type: "string", description: "the ticket system's staff id of a staff user" },
    },
    async run(deps, values) {
      const user = await createUser(deps, {
        login: String(values.login),
        capabilities: capabilitiesOf(values.capabilities),
        appPasswordName: values.name ? String(values.name) : undefined,
        staffId: staffIdOf(values["staff-id"]),
      });
      return { id: user.id, login: user.login, capabilities: user.capabilities, ...(user.staff_id !== null && { staff_id: user.staff_id }), application_password: user.application_password };
    },
  },
  "user:grant": {
    arguments: [
      { name: "LOGIN", description: "login name" },
      { name: "CAPABILITY", description: "manage_middleware, manage_options or staff (several separated by spaces or commas)", variadic: true },
    ],
    options: { "staff-id": { type: "string", description: "also link the user to this staff id of the ticket system (for staff)" } },
    async run(deps, values, [login, ...capabilities]) {
      return changeCapabilities(deps, login!, { grant: capabilitiesOf(capabilities.join(",")), staffId: staffIdOf(values["staff-id"]) });
    },
  },
  "user:revoke": {
    arguments: [
      { name: "LOGIN", description: "login name" },
      { name: "CAPABILITY", description: "manage_middleware, manage_options or staff (several separated by spaces or commas)", variadic: true },
    ],
    options: {},
    async run(deps, _values, [login, ...capabilities]) {
      return changeCapabilities(deps, login!, { revoke: capabilitiesOf(capabilities.join(",")) });
    },
  },
  "user:password": {
    options: {
      login: { type: "string", required: true, description: "login name" },
      stdin: { type: "boolean", description: "read the password from standard input instead of generating one" },
    },
    async run(deps, values) {
      const { password, generated } = await passwordFrom(values);
      await setLoginPassword(deps, String(values.login), password);
      return generated ? { login: values.login, password } : { login: values.login, success: true };
    },
  },
  "user:app-password": {
    options: {
      login: { type: "string", required: true, description: "login name" },
      name: { type: "string", required: true, description: "what the password is for" },
    },
    async run(deps, values) {
      const issued = await createAppPasswordFor(deps, String(values.login), String(values.name));
      return { login: values.login, ...issued };
    },
  },
  "user:revoke-app-password": {
    options: {
      login: { type: "string", required: true, description: "login name" },
      id: { type: "string", description: "application password id" },
      name: { type: "string", description: "application password name" },
    },
    async run(deps, values) {
      if ((values.id === undefined) === (values.name === undefined)) {
        throw errors.invalidInput("give exactly one of --id or --name");
      }
      const id = values.id === undefined ? undefined : Number(values.id);
      if (id !== undefined && !Number.isInteger(id)) throw errors.invalidInput("--id must be an integer");
      const revoked = await revokeAppPassword(deps, String(values.login), { id, name: values.name as string | undefined });
      if (revoked === 0) throw errors.notFound("no active application password matched");
      return { login: values.login, revoked };
    },
  },
};

export const ticketBridgeCommands: Record<string, Command> = {
  "ticket-bridge:secret": {
    options: {},
    async run(deps) {
      return { ticket_bridge_secret: await rotateTicketBridgeSecret(deps) };
    },
  },
};
