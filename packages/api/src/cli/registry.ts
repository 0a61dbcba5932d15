// The commands by name: what `pnpm cli --help` lists, and where each one's code is. A command's module
// (and the domain it calls) is imported only when that command runs, so help and any one command start
// without loading every domain.
import type { Command } from "./command.ts";

export interface RegisteredCommand {
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: Record<string, RegisteredCommand> = {
  "user:create": {
    summary: "create a user; prints its application password once",
    load: async () => (await import("./identity.ts")).userCommands["user:create"]!,
  },
  "user:grant": {
    summary: "give an existing user one or more capabilities; effective on its next request",
    load: async () => (await import("./identity.ts")).userCommands["user:grant"]!,
  },
  "user:revoke": {
    summary: "take one or more capabilities from a user; effective on its next request",
    load: async () => (await import("./identity.ts")).userCommands["user:revoke"]!,
  },
  "user:password": {
    summary: "set the login password used by POST /auth/login (generated and printed once, or read from stdin)",
    load: async () => (await import("./identity.ts")).userCommands["user:password"]!,
  },
  "user:app-password": {
    summary: "issue another application password; printed once",
    load: async () => (await import("./identity.ts")).userCommands["user:app-password"]!,
  },
  "user:revoke-app-password": {
    summary: "revoke application passwords by id or by name; effective on the next request",
    load: async () => (await import("./identity.ts")).userCommands["user:revoke-app-password"]!,
  },
  "ticket-bridge:secret": {
    summary: "create or replace the ticket system's agent signing secret (X-Ticket-Staff); printed once, for the plugin's bin/configure.php, which runs this",
    load: async () => (await import("./identity.ts")).ticketBridgeCommands["ticket-bridge:secret"]!,
  },
  "items:import": {
    summary: "create or update catalogue items from a CSV file (columns sku,name,price,stock)",
    load: async () => (await import("./inventory.ts")).itemCommands["items:import"]!,
  },
  "merchant:add": {
    summary: "add a merchant account: acquirer MID to payment-gateway security key (stored encrypted)",
    load: async () => (await import("./disputes.ts")).merchantCommands["merchant:add"]!,
  },
  "image-key:create": {
    summary: "issue a key for the image API (/api/image, /api/image-random); printed once, only its hash is kept",
    load: async () => (await import("./images.ts")).imageKeyCommands["image-key:create"]!,
  },
  "image-key:revoke": {
    summary: "revoke an image-API key for good; effective on the next request",
    load: async () => (await import("./images.ts")).imageKeyCommands["image-key:revoke"]!,
  },
  "review:add": {
    summary: "add a customer review to a catalogue item (published in GET /items/{id}/schema-markup)",
    load: async () => (await import("./reviews.ts")).reviewCommands["review:add"]!,
  },
  "options:set": {
    summary: "set a run-time option (secrets are stored encrypted; null returns it to its default)",
    load: async () => (await import("./options.ts")).optionCommands["options:set"]!,
  },
  "options:get": {
    summary: "show a run-time option (a secret shows only whether it is set)",
    load: async () => (await import("./options.ts")).optionCommands["options:get"]!,
  },
  "tickets:import": {
    summary: "backfill tickets, thread entries and staff from a JSON Lines file of ticket-system signals (bad lines are reported and skipped)",
    load: async () => (await import("./tickets.ts")).ticketCommands["tickets:import"]!,
  },
  "staff:import": {
    summary: "create or update the staff directory from a CSV file (id,name,email,phone,department_id,is_project_manager,is_department_manager); bad rows are reported and skipped",
    load: async () => (await import("./tickets.ts")).staffCommands["staff:import"]!,
  },
  "time:import": {
    summary: "run the Harvest time import now (as the 15-minute schedule does): entries, hours used, budgets, over-budget locks",
    load: async () => (await import("./timetracking.ts")).timeCommands["time:import"]!,
  },
  "licenses:import": {
    summary: "create or update licenses from a CSV file (product,license_key,seats,expires_on,cost_id,notes); a row with a product and key already stored updates that license, so a second import changes nothing; bad rows are reported and skipped",
    load: async () => (await import("./managed-sites.ts")).licenseCommands["licenses:import"]!,
  },
  "knowledge:add": {
    summary: "add (or replace) a wiki article, documentation page or brand description in the assistant's index, from a file or URL; embedded by a worker",
    load: async () => (await import("./knowledge.ts")).knowledgeCommands["knowledge:add"]!,
  },
  "order:show": {
    summary: "where an order is in its life: export and read-back state, why, attempts, last error, next attempt, its job (one entry per site with that number)",
    load: async () => (await import("./orders.ts")).orderCommands["order:show"]!,
  },
  "orders:reindex": {
    summary: "rebuild the order list's search grams and per-site counts from the orders (after a restore or bulk load that bypassed their triggers); says how many orders and how long it took",
    load: async () => (await import("./orders.ts")).orderCommands["orders:reindex"]!,
  },
  "dispute:show": {
    summary: "where a received dispute is: processing state and outcome, why, attempts, last error, next attempt, its newest job (replays included)",
    load: async () => (await import("./disputes.ts")).disputeCommands["dispute:show"]!,
  },
  "queues:adopt": {
    summary: "move QUEUE_PREFIX to the database DATABASE_URL names, after a deliberate move of the database (says what it changes; --yes makes the change)",
    load: async () => (await import("./queues.ts")).queueCommands["queues:adopt"]!,
  },
};
