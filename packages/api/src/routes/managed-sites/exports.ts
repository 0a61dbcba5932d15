import { Readable } from "node:stream";
import { csvTextCell, formatDay } from "@mw/platform";
import { csvChunks, type CsvRow as Row } from "@mw/domains/reports";
import { formBool, managedSitesForExport, SITE_STATUSES, type SiteExportRow } from "@mw/domains/managed-sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { adminAction, FileAnswer, type AdminAction } from "../../http/admin-ajax.ts";

const exportInput = z.object({
  status: z.enum([...SITE_STATUSES, "all"]).default("active"),
  /** 1: the CSV file itself instead of `{filename, csv}` (design 10.8). */
  download: formBool.default(false),
});
const exportData = z.object({ filename: z.string(), csv: z.string() });

/** The export's rows, a batch of sites at a time. */
async function* exportRows(ctx: Pick<AppContext, "replica">, status: z.infer<typeof exportInput>["status"], rowsOf: (site: SiteExportRow) => Row[]): AsyncGenerator<Row[]> {
  for await (const sites of managedSitesForExport(ctx, status)) yield sites.flatMap(rowsOf);
}

/**
 * Design 10.8: `{filename, csv}`, or the raw file with download=1, streamed
 * as its sites are read (each chunk waits for the client to take the last):
 * the file of every plugin of every site stays out of memory.
 */
async function answer(name: string, columns: string[], batches: AsyncIterable<Row[]>, download: boolean) {
  const filename = `${name}-${formatDay(new Date())}.csv`;
  const chunks = csvChunks(columns, batches);
  if (download) return new FileAnswer(filename, "text/csv; charset=utf-8", Readable.from(chunks));
  let csv = "";
  for await (const chunk of chunks) csv += chunk;
  return { filename, csv };
}

/** export_sites and export_plugins (spec 2, 4.4 Reports): site and plugin text neutralised against spreadsheet formulas. */
export function exportActions(ctx: Pick<AppContext, "replica">): AdminAction[] {
  return [
    adminAction({
      name: "export_sites",
      group: "Reports",
      summary: "The managed sites as CSV (active ones unless status says archived or all); download=1 answers the file",
      input: exportInput,
      data: exportData,
      example: {
        input: { status: "active" },
        data: { filename: "sites-2026-11-25.csv", csv: "id,name,url,client,status,hosting,plugins,plugin_updates,ssl_expires_at,synced_at\n3,ACME shop,https://shop.acme.example,ACME,active,Kinsta,1,0,2027-01-20,2026-11-25\n" },
      },
      handler: async (input) => {
        const rows = exportRows(ctx, input.status, (site) => {
          const plugins = site.plugins ?? [];
          return [
            [
              site.id,
              csvTextCell(site.name),
              csvTextCell(site.url),
              csvTextCell(site.client),
              site.status,
              csvTextCell(site.hosting),
              plugins.length,
              plugins.filter((plugin) => plugin.update_available).length,
              site.ssl_expires_on ?? "",
              site.synced_on ?? "",
            ],
          ];
        });
        return answer("sites", ["id", "name", "url", "client", "status", "hosting", "plugins", "plugin_updates", "ssl_expires_at", "synced_at"], rows, input.download);
      },
    }),
    adminAction({
      name: "export_plugins",
      group: "Reports",
      summary: "Every plugin of every managed site (as the last sync_site read them) as CSV; download=1 answers the file",
      input: exportInput,
      data: exportData,
      example: {
        input: { download: false },
        data: { filename: "plugins-2026-11-25.csv", csv: "site_id,site,url,plugin,name,version,active,update_available\n3,ACME shop,https://shop.acme.example,woocommerce/woocommerce,WooCommerce,9.4.1,1,0\n" },
      },
      handler: async (input) => {
        const rows = exportRows(ctx, input.status, (site) =>
          (site.plugins ?? []).map((plugin) => [
            site.id,
            csvTextCell(site.name),
            csvTextCell(site.url),
            csvTextCell(plugin.plugin),
            csvTextCell(plugin.name),
            csvTextCell(plugin.version),
            plugin.active ? 1 : 0,
            plugin.update_available === null ? "" : Number(plugin.update_available),
          ]),
        );
        return answer("plugins", ["site_id", "site", "url", "plugin", "name", "version", "active", "update_available"], rows, input.download);
      },
    }),
  ];
}
