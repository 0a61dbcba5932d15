import { createUser } from "@mw/domains/identity";
import { type PrismaClient } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";

// GET {API_ROOT}/items/{id}/schema-markup (spec 1, 4.4) and the reviews that feed it.
const ROOT = "/middleware/v1";
const HOSTILE_NAME = `Widget </script><script>alert("x")</script> & <!-- \u2028 \u2029 "quoted"`;

let api: TestApi;
let prisma: PrismaClient;
let auth: string;

beforeAll(async () => {
  api = await startApi();
  prisma = api.ctx.prisma;
  const admin = await createUser({ prisma }, { login: uniqueLogin("markup"), capabilities: ["manage_middleware"] });
  auth = basicAuth(admin.login, admin.application_password);
});

afterAll(() => api.close());

async function call(method: string, path: string, body?: unknown, authorization = auth) {
  const res = await fetch(`${api.url}${ROOT}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

let sku = 0;
async function item(name: string): Promise<number> {
  sku += 1;
  return (await prisma.item.create({ data: { sku: `MARK-${process.pid}-${sku}`, name, price: 19.99, stock: 3 } })).id;
}

/** The one JSON-LD script of the page, parsed; fails unless there is exactly one script element. */
function jsonLd(html: string): Record<string, unknown> {
  expect(html.match(/<script/gi)).toHaveLength(1);
  expect(html.match(/<\/script/gi)).toHaveLength(1);
  const found = /^<script type="application\/ld\+json">(.*)<\/script>\n?$/s.exec(html);
  expect(found).not.toBeNull();
  return JSON.parse(found![1]!) as Record<string, unknown>;
}

describe("schema markup", () => {
  it("merges the reviews and their aggregate rating into one Product script", async () => {
    const id = await item("Garden hose 25 ft");
    const reviews = [
      { author: "Ann", rating: 5, title: "Great", body: "Does the job.", date_published: "2026-10-01" },
      { author: "Bob", rating: 4, body: "Fine, a bit stiff.", date_published: "2026-10-03" },
      { author: "Cy", rating: 2, body: "Leaked after a week.", date_published: "2026-09-15" },
    ];
    for (const review of reviews) expect((await call("POST", `/items/${id}/reviews`, review)).status).toBe(201);

    const page = await call("GET", `/items/${id}/schema-markup`);
    expect(page.status).toBe(200);
    expect(page.type).toBe("text/html; charset=utf-8");
    const product = await prisma.item.findUniqueOrThrow({ where: { id } });
    const rating = (value: number) => ({ "@type": "Rating", ratingValue: value, bestRating: 5, worstRating: 1 });
    expect(jsonLd(page.text)).toEqual({
      "@context": "https://schema.org",
      "@type": "Product",
      name: "Garden hose 25 ft",
      sku: product.sku,
      aggregateRating: { "@type": "AggregateRating", ratingValue: 3.67, reviewCount: 3, bestRating: 5, worstRating: 1 },
      review: [
        { "@type": "Review", author: { "@type": "Person", name: "Bob" }, datePublished: "2026-10-03", reviewBody: "Fine, a bit stiff.", reviewRating: rating(4) },
        { "@type": "Review", author: { "@type": "Person", name: "Ann" }, datePublished: "2026-10-01", name: "Great", reviewBody: "Does the job.", reviewRating: rating(5) },
        { "@type": "Review", author: { "@type": "Person", name: "Cy" }, datePublished: "2026-09-15", reviewBody: "Leaked after a week.", reviewRating: rating(2) },
      ],
    });
  });

  it("keeps a name or review holding </script> inside the script element, and the JSON intact", async () => {
    const id = await item(HOSTILE_NAME);
    expect((await call("POST", `/items/${id}/reviews`, { author: "</script><b>x</b>", rating: 5, body: "a < b && c > d \u2028 e" })).status).toBe(201);
    const page = await call("GET", `/items/${id}/schema-markup`);
    const data = jsonLd(page.text);
    expect(data.name).toBe(HOSTILE_NAME);
    expect((data.review as { author: { name: string }; reviewBody: string }[])[0]).toMatchObject({ author: { name: "</script><b>x</b>" }, reviewBody: "a < b && c > d \u2028 e" });
    // Inside the element only the escapes appear.
    const inner = page.text.slice('<script type="application/ld+json">'.length, page.text.lastIndexOf("</script>"));
    expect(inner).not.toMatch(/[<>&\u2028\u2029]/);
    expect(inner).toContain("\\u003c/script\\u003e");
  });

  it("has no review or aggregateRating without reviews", async () => {
    const id = await item("Plain item");
    const data = jsonLd((await call("GET", `/items/${id}/schema-markup`)).text);
    expect(Object.keys(data).sort()).toEqual(["@context", "@type", "name", "sku"]);
  });

  it("answers 404 for an unknown item and needs manage_middleware", async () => {
    const missing = await call("GET", "/items/999999999/schema-markup");
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({ code: "rest_not_found", data: { status: 404 } });
    const id = await item("Private item");
    expect((await call("GET", `/items/${id}/schema-markup`, undefined, "")).status).toBe(403);
    const staff = await createUser({ prisma }, { login: uniqueLogin("staff"), capabilities: ["staff"] });
    expect((await call("GET", `/items/${id}/schema-markup`, undefined, basicAuth(staff.login, staff.application_password))).status).toBe(403);
  });
});

describe("reviews", () => {
  it("validates, lists newest first, and removes", async () => {
    const id = await item("Reviewed item");
    const bad = await call("POST", `/items/${id}/reviews`, { author: "Ann", rating: 6, body: "x" });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ code: "rest_invalid_param", data: { params: { rating: expect.any(String) } } });
    expect((await call("POST", `/items/${id}/reviews`, { author: "Ann", rating: 3, body: "x", date_published: "2026-02-30" })).status).toBe(400);
    expect((await call("POST", "/items/999999999/reviews", { author: "Ann", rating: 3, body: "x" })).status).toBe(404);

    const old = JSON.parse((await call("POST", `/items/${id}/reviews`, { author: "Old", rating: 3, body: "old", date_published: "2025-01-01" })).text) as { id: number };
    const today = JSON.parse((await call("POST", `/items/${id}/reviews`, { author: "New", rating: 4, body: "new" })).text) as { id: number };
    const list = JSON.parse((await call("GET", `/items/${id}/reviews?per_page=1`)).text) as { reviews: { id: number; date_published: string }[]; total: number; total_pages: number };
    expect(list).toMatchObject({ total: 2, page: 1, per_page: 1, total_pages: 2 });
    expect(list.reviews[0]).toMatchObject({ id: today.id, date_published: new Date().toISOString().slice(0, 10) });

    expect((await call("DELETE", `/items/${id}/reviews/${old.id}`)).status).toBe(200);
    expect((await call("DELETE", `/items/${id}/reviews/${old.id}`)).status).toBe(404);
    const markup = jsonLd((await call("GET", `/items/${id}/schema-markup`)).text);
    expect(markup.aggregateRating).toMatchObject({ ratingValue: 4, reviewCount: 1 });
  });
});
