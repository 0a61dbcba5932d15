import { addReview, reviewInput } from "@mw/domains/reviews";
import { errors } from "@mw/platform/core";
import { itemIdBySku } from "@mw/domains/inventory";
import type { Command } from "./command.ts";

export const reviewCommands: Record<string, Command> = {
  "review:add": {
    options: {
      sku: { type: "string", required: true, description: "the item's SKU" },
      author: { type: "string", required: true, description: "the reviewer's name" },
      rating: { type: "string", required: true, description: "1 to 5" },
      body: { type: "string", required: true, description: "the review text" },
      title: { type: "string", description: "a headline" },
      date: { type: "string", description: "publication day YYYY-MM-DD (default today)" },
    },
    async run(deps, values) {
      const parsed = reviewInput.safeParse({
        author: values.author,
        rating: Number(values.rating),
        body: values.body,
        title: values.title,
        date_published: values.date,
      });
      if (!parsed.success) throw errors.invalidInput(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      const itemId = await itemIdBySku(deps, String(values.sku));
      if (itemId === null) throw errors.notFound(`no item with SKU ${String(values.sku)}`);
      const review = await addReview(deps, itemId, parsed.data);
      return { id: review.id, item_id: itemId };
    },
  },
};
