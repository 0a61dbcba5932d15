import { alertEmailJob, chatMessageJob, healthPingJob } from "@mw/domains/notifications";
import { handle } from "../../runtime/processor.ts";
import { alertEmail, chatMessage, healthPing } from "./notifications.ts";

export const notificationHandlers = [handle(alertEmailJob, alertEmail), handle(healthPingJob, healthPing), handle(chatMessageJob, chatMessage)];
