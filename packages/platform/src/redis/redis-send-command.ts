import type { RedisClient } from "./redis.ts";
import { LuaScript } from "./lua-script.ts";

/** A raw command sender, as libraries that speak to Redis through one (rate-limit-redis's `sendCommand`) take it. */
export type SendCommand = (command: string, ...args: string[]) => Promise<unknown>;

/**
 * `sendCommand` for a library that loads its Lua scripts once with SCRIPT
 * LOAD and then runs them with EVALSHA. SCRIPT LOAD names no key, so a
 * cluster sends it to any node, while EVALSHA goes to its key's node, which
 * answers NOSCRIPT; so does a new master after a failover, or any node after
 * SCRIPT FLUSH. Here SCRIPT LOAD only keeps the script's text (answering its
 * SHA, as Redis would), and EVALSHA of a kept script runs as every script of
 * the platform does (LuaScript): by SHA on the key's node, in full there when
 * that node lacks it. Every other command passes through.
 */
export function scriptSafeSendCommand(redis: RedisClient): SendCommand {
  const sources = new Map<string, string>();
  const scripts = new Map<string, LuaScript>();
  return async (command, ...args) => {
    const name = command.toUpperCase();
    if (name === "SCRIPT" && args[0]?.toUpperCase() === "LOAD" && args.length === 2) {
      const { sha } = new LuaScript(args[1]!, 0);
      sources.set(sha, args[1]!);
      return sha;
    }
    const source = name === "EVALSHA" ? sources.get(args[0]!) : undefined;
    if (source === undefined) return redis.call(command, ...args);
    const [, keyCount, ...keysAndArgs] = args;
    const id = `${args[0]}:${keyCount}`;
    let script = scripts.get(id);
    if (!script) {
      script = new LuaScript(source, Number(keyCount));
      scripts.set(id, script);
    }
    return script.run(redis, ...keysAndArgs);
  };
}
