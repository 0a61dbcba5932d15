import { orderExportJob, orderSweepJob } from "@mw/shared/orders";
import { handle } from "../../runtime/processor.ts";
import { orderExport, orderSweep } from "./order-export.ts";

export const orderHandlers = [handle(orderExportJob, orderExport), handle(orderSweepJob, orderSweep)];
