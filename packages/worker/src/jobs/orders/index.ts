import { orderExportJob, ordersImportJob, ordersImportSchedule, orderSweepJob, orderVerifyJob, orderVolumeDailyJob, orderVolumeTestsJob } from "@mw/domains/orders";
import { handle } from "../../runtime/processor.ts";
import { orderExport, orderSweep } from "./order-export.ts";
import { orderVerify } from "./order-verify.ts";
import { ordersImport } from "./orders-import.ts";
import { orderVolumeDaily, orderVolumeTests } from "./order-volume.ts";

export const orderHandlers = [
  handle(orderExportJob, orderExport),
  handle(orderVerifyJob, orderVerify),
  handle(orderSweepJob, orderSweep),
  handle(ordersImportJob, ordersImport, { reconcileSchedules: ordersImportSchedule.reconcile }),
  handle(orderVolumeTestsJob, orderVolumeTests),
  handle(orderVolumeDailyJob, orderVolumeDaily),
];
