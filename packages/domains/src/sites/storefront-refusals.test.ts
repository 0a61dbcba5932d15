import { describe, expect, it } from "vitest";
import { errors } from "@mw/platform/core";
import { isDuplicateSalesOrder } from "@mw/providers/erp";
import { isRefusal } from "./storefront-refusals.ts";

// What the syncs and the export do with each upstream status; the fakes answer only some of these.
const STATUSES = [400, 401, 403, 404, 405, 408, 409, 410, 422, 429, 500, 502, 503];

describe("upstream failure kinds", () => {
  it("count 400, 404, 409 and 422 as refusals of one request, and nothing else", () => {
    const refusals = STATUSES.filter((status) => isRefusal(errors.upstream(status, "answered")));
    expect(refusals).toEqual([400, 404, 409, 422]);
  });

  it("take only a 409 as the ERP's duplicate sales order", () => {
    expect(STATUSES.filter((status) => isDuplicateSalesOrder(errors.upstream(status, "answered")))).toEqual([409]);
  });

  it("leave 408, 429 and 5xx to retries and make every other 4xx permanent", () => {
    const transient = STATUSES.filter((status) => !errors.upstream(status, "answered").permanent);
    expect(transient).toEqual([408, 429, 500, 502, 503]);
  });
});
