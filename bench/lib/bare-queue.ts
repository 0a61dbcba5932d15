// The webhook baseline: Express reading the body and doing one BullMQ queue.add, nothing else.
import { Queue } from "bullmq";
import express from "express";
import { createRedis } from "@mw/platform";

const queue = new Queue("bench-baseline", { connection: createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { name: "mw-bench-baseline" }), prefix: process.env.QUEUE_PREFIX ?? "mwbench" });
let n = 0;
const app = express();
app.use(express.raw({ type: () => true, limit: "1mb" }));
app.post("/webhook", async (_req, res) => {
  n += 1;
  const job = await queue.add("process-dispute", { webhook_id: n }, { removeOnComplete: true });
  res.status(202).json({ success: true, message: "queued", webhook_id: Number(job.id) });
});
app.get("/", (_req, res) => {
  res.send("ok");
});
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => void queue.obliterate({ force: true }).finally(() => process.exit(0))));
