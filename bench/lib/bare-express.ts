// The baseline: Express parsing the same JSON body and answering 201, nothing else.
import express from "express";

const app = express();
app.use(express.json({ limit: "1mb" }));
app.post("/orders", (req, res) => {
  res.status(201).json({ success: true, order_number: (req.body as { order_number?: string }).order_number, message: "ok" });
});
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
