export { clearQueueLogs } from "./clear.ts";
export { queueLogDir } from "./files.ts";
export { readQueueLogs, type QueueLogLine, type QueueLogQuery } from "./reader.ts";
export { writeQueueLogFiles } from "./writer.ts";
