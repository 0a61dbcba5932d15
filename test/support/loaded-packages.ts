// Imported (`--import`) into a child process by runCliProcessLoading: at its exit, writes the names of the
// packages it loaded to LOADED_PACKAGES_FILE. Only CommonJS packages are seen (the require cache), which is
// what the Redis client, BullMQ and the database drivers are.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const cache = createRequire(import.meta.url).cache;
process.on("exit", () => {
  const names = new Set(Object.keys(cache).map((file) => /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]));
  names.delete(undefined);
  writeFileSync(process.env.LOADED_PACKAGES_FILE!, JSON.stringify([...names].sort()));
});
