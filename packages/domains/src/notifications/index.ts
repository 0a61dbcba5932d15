export { alertEmailJob, chatMessageJob, healthPingJob, notificationsRetentionJob, operatorAlertJobId } from "./jobs.ts";
export { purgeNotifications } from "./retention.ts";
export { latestNotifications, markNotificationsRead, notificationsAfter, notifyStaff, unreadCount } from "./staff-notifications.ts";
export { takeStreamSlot } from "./stream-slots.ts";
export { alertsCheck, deliverOperatorAlert, dismissOperatorAlert, raiseOperatorAlert, resendOperatorAlert, undeliveredOperatorAlerts } from "./operator-alerts.ts";
export { pingHealthCheck } from "./health-ping.ts";
export { sendChatMessage } from "./chat-message.ts";
export { byMail, deliverToEach, eachAlone, redisLedger, retryOf, type DeliveryLedger, type DeliveryRetryConfig, type DeliveryState } from "./delivery-failures.ts";
