import { errors } from "@mw/platform/core";
import { orderLifecyclesByNumber, reindexOrderSearch } from "@mw/domains/orders";
import type { Command } from "./command.ts";

export const orderCommands: Record<string, Command> = {
  "order:show": {
    queues: true,
    arguments: [{ name: "NUMBER", description: "the order number" }],
    options: {},
    async run(deps, _values, [number]) {
      const orders = await orderLifecyclesByNumber(deps, number!);
      if (!orders.length) throw errors.notFound(`No order ${number}.`);
      return { orders };
    },
  },
  "orders:reindex": {
    longStatements: true,
    options: {},
    run: (deps) => reindexOrderSearch(deps),
  },
};
