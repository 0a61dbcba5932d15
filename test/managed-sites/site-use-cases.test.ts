import { auditSite, syncSiteWordPress } from "@mw/domains/managed-sites";
import { encryptSecret, openConnections, type Connections } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeWordPress } from "../fakes/wordpress.ts";
import { testConfig } from "../support/api.ts";

// The managed-site use cases called in process, as a worker's handler calls
// them, against a fake WordPress: no worker process, no queue.

const RUN = `${process.pid}-${Date.now() % 100000}`;
const wordpress = new FakeWordPress();
let connections: Connections;

/** What a job hands the use case: its log, and a progress that is recorded here. */
function jobRun() {
  const progress: [number, number, string | undefined][] = [];
  return { progress, run: { log: connections.logger, progress: async (done: number, total: number, note?: string) => void progress.push([done, total, note]) } };
}

beforeAll(async () => {
  await wordpress.start();
  connections = openConnections(testConfig({ HTTP_TIMEOUT_MS: "1500" }), "site-use-cases-test");
});

afterAll(async () => {
  await connections?.close();
  await wordpress.stop();
});

describe("the managed-site use cases, in process", () => {
  it("syncs a site's WordPress name and plugins onto its row, reporting progress", async () => {
    wordpress.name = `In-process Shop ${RUN}`;
    wordpress.plugins = [
      { plugin: "woocommerce/woocommerce", name: "WooCommerce", version: "9.4.1", status: "active", update: { new_version: "9.5.0" } },
      { plugin: "akismet/akismet", name: "Akismet", version: "5.3", status: "inactive", update: false },
    ];
    const { prisma, config } = connections;
    const site = await prisma.managedSite.create({
      data: { name: `In-process ${RUN}`, url: wordpress.origin, wp_username: wordpress.username, wp_app_password: encryptSecret(wordpress.appPassword, config.ENCRYPTION_KEY) },
    });
    const { progress, run } = jobRun();

    const result = await syncSiteWordPress({ prisma, config, ...run }, site.id);

    expect(result).toMatchObject({ site_id: site.id, wp_name: `In-process Shop ${RUN}`, plugins: 2, active: 1, updates_available: 1, synced_at: expect.any(String) });
    expect(progress).toEqual([
      [0, 2, "reading the WordPress REST API"],
      [2, 2, "2 plugins"],
    ]);
    const stored = await prisma.managedSite.findUniqueOrThrow({ where: { id: site.id } });
    expect(stored).toMatchObject({ wp_name: `In-process Shop ${RUN}`, synced_at: expect.any(Date) });
    await prisma.managedSite.delete({ where: { id: site.id } });
  });

  it("fails for good on a site deleted since its job was queued", async () => {
    const { prisma, config } = connections;
    const site = await prisma.managedSite.create({ data: { name: `Gone ${RUN}`, url: `${wordpress.origin}/gone` } });
    await prisma.managedSite.delete({ where: { id: site.id } });
    await expect(auditSite({ prisma, config, ...jobRun().run }, site.id)).rejects.toMatchObject({ code: "site_not_found", permanent: true });
  });
});
