// The agency's management dashboard in `pnpm demo`: two client sites, the
// hosting they share and the plugin licences it pays for, added through the
// admin AJAX actions an administrator's browser uses, so the console's
// managed sites, costs and licences pages have something to show.

const SITES = [
  { name: "ACME shop", url: "https://shop.acme.example", client: "ACME Shop", hosting: "Kinsta" },
  { name: "Bloom Florist", url: "https://bloom.example", client: "Bloom Florist", hosting: "Kinsta" },
];

/** Adds the sites, a shared hosting cost and two licences; `authorization` is an administrator's HTTP Basic header. */
export async function seedManagedSites(base: string, authorization: string): Promise<void> {
  const action = async (name: string, fields: Record<string, string>): Promise<{ id: number }> => {
    const res = await fetch(`${base}/admin-ajax`, { method: "POST", headers: { authorization }, body: new URLSearchParams({ action: name, ...fields }), signal: AbortSignal.timeout(10_000) });
    const body = (await res.json()) as { success: boolean; data: { id: number } };
    if (!res.ok || !body.success) throw new Error(`admin AJAX ${name} answered ${res.status}: ${JSON.stringify(body)}`);
    return body.data;
  };
  const sites = [];
  for (const site of SITES) sites.push(await action("add_site", site));
  const hosting = await action("add_cost", { name: "Hosting plan", vendor: "Kinsta", amount: "300", currency: "EUR", cycle: "yearly", renews_on: "2027-03-01" });
  for (const site of sites) await action("assign_cost_to_site", { cost_id: String(hosting.id), site_id: String(site.id) });
  const plugins = await action("add_cost", { name: "Plugin licences", vendor: "Gravity Forms", amount: "259", currency: "USD", cycle: "yearly" });
  await action("add_license", { product: "Gravity Forms Elite", license_key: "GF-DEMO-0001", seats: "10", expires_on: "2027-01-15", cost_id: String(plugins.id) });
  await action("add_license", { product: "SEO Suite", license_key: "SEO-DEMO-0002", seats: "5", expires_on: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10) });
}
