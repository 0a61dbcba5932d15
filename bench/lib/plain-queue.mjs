// The plain webhook baseline (issue 34): a bare Express app in plain JavaScript, run
// by node itself (no TypeScript loader, nothing of the platform), that reads the raw
// body and does one BullMQ queue.add per request (small job data, removeOnComplete).
import process from "node:process";
import { Queue } from "bullmq";
import express from "express";
import { Redis } from "ioredis";

const queue = new Queue("bench-plain", { connection: new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: null }), prefix: process.env.QUEUE_PREFIX ?? "mwbench" });
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
