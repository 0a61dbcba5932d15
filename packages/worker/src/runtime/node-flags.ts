/**
 * Node flags every launcher of a worker process passes (pnpm start, the
 * package scripts, the container command, the benches). A job allocates a
 * few hundred kilobytes that die young (the gateway's answer, its text,
 * parsed rows); with V8's default young generation they are scavenged
 * several times per job. A 32 MB semi-space let one worker process take
 * 13 % more disputes per second (docs/decisions.md, "Dispute pipeline
 * throughput"). package.json, Dockerfile and docker-compose.yml repeat the
 * flag literally: keep them in step.
 */
export const WORKER_NODE_FLAGS = ["--max-semi-space-size=32"];
