import { randomInt } from "node:crypto";
import { buffer } from "node:stream/consumers";
import type { Request } from "express";
import { formatDateTime, imageErrors, isObjectNotFound, sha256Hex, type StoredObject } from "@mw/platform";
import { findSerial, serialImageKey } from "@mw/domains/images";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { sendObject } from "../../http/send-object.ts";

/** Spec 1, 4.9: the random endpoint draws ids from this fixed range of the serial-number table. */
const RANDOM_SERIAL_ID_MAX = 240157;
/** A serial's image does not change once sealed; a short private lifetime still lets a re-upload show within minutes. */
const SERIAL_CACHE_CONTROL = "private, max-age=300";

const imageResult = z.object({
  image: z.string().describe("the JPEG, base64"),
  date_of_sealing: z.string().describe("YYYY-MM-DD HH:MM:SS (UTC)"),
});

function queryString(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === "string" ? value.trim() : "";
}

/** Opens the image in storage, turning storage failures into the spec's two 404 texts. */
async function openImage(ctx: Pick<AppContext, "storage">, key: string): Promise<StoredObject> {
  try {
    return await ctx.storage.get(key);
  } catch (error) {
    throw isObjectNotFound(error) ? imageErrors.fileNotFound() : imageErrors.unreadable(error);
  }
}

/** The image API (spec 1, 4.9), mounted at `/api`; errors are `{error}` with the spec's texts. */
export function imageRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "prisma" | "storage">): void {
  api.route({
    method: "get",
    path: "/image",
    summary: "A serial number's sealing image (base64 JPEG) and sealing date",
    tag: "images",
    access: "image_key",
    documentQuery: z.object({ serial_number: z.string(), api_key: z.string() }),
    example: { response: { image: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA...", date_of_sealing: "2026-03-14 15:30:00" } },
    responses: {
      200: { description: "The image and its sealing date", schema: imageResult },
      304: { description: "Not modified (If-None-Match matched the ETag)" },
      400: { description: "Serial number is required" },
      404: { description: "Serial number not found / Serial Number Image File not found / Could not Retrieve the image. Please retry again" },
    },
    handler: async (_input, req, res) => {
      const serial = queryString(req, "serial_number");
      if (!serial) throw imageErrors.serialRequired();
      const row = await findSerial(ctx, serial);
      if (!row) throw imageErrors.serialNotFound();
      const object = await openImage(ctx, row.image_key);
      const dateOfSealing = formatDateTime(row.date_of_sealing)!;
      // The answer is the image and the date: both go into its validator.
      const etag = `"${sha256Hex(`${object.etag}|${dateOfSealing}`).slice(0, 32)}"`;
      res.set({ "Cache-Control": SERIAL_CACHE_CONTROL, ETag: etag });
      if (req.fresh) {
        object.body.destroy();
        res.status(304).end();
        return undefined;
      }
      let bytes: Buffer;
      try {
        bytes = await buffer(object.body);
      } catch (error) {
        throw imageErrors.unreadable(error);
      }
      return { image: bytes.toString("base64"), date_of_sealing: dateOfSealing };
    },
  });

  api.route({
    method: "get",
    path: "/image-random",
    summary: "The raw JPEG of a random serial number (ids 1 to 240157)",
    tag: "images",
    access: "image_key",
    documentQuery: z.object({ api_key: z.string() }),
    example: { response: { image: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA...", date_of_sealing: "2025-08-02 09:12:44" } },
    responses: {
      200: { description: "The JPEG (Content-Type image/jpeg)" },
      404: { description: "Serial number not found (the drawn id has no row) / Serial Number Image File not found / Could not Retrieve the image. Please retry again" },
    },
    handler: async (_input, _req, res) => {
      const id = randomInt(1, RANDOM_SERIAL_ID_MAX + 1);
      const imageKey = await serialImageKey(ctx, id);
      if (!imageKey) throw imageErrors.serialNotFound();
      const object = await openImage(ctx, imageKey);
      // Every request may answer another image: nothing to cache or revalidate.
      res.set({ "Content-Type": "image/jpeg", "Cache-Control": "no-store" });
      if (object.size !== null) res.set("Content-Length", String(object.size));
      await sendObject(ctx.logger, object, imageKey, res);
      return undefined;
    },
  });
}
