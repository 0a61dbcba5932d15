import { ticketsRetentionJob } from "@mw/domains/tickets";
import { handle } from "../../runtime/processor.ts";
import { ticketsRetention } from "./retention.ts";

export const ticketHandlers = [handle(ticketsRetentionJob, ticketsRetention)];
