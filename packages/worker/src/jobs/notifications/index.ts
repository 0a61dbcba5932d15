import { alertEmailJob, chatMessageJob, healthPingJob, notificationsRetentionJob } from "@mw/domains/notifications";
import { handle } from "../../runtime/processor.ts";
import { alertEmail, chatMessage, healthPing } from "./notifications.ts";
import { notificationsRetention } from "./retention.ts";

export const notificationHandlers = [handle(alertEmailJob, alertEmail), handle(healthPingJob, healthPing), handle(chatMessageJob, chatMessage), handle(notificationsRetentionJob, notificationsRetention)];
