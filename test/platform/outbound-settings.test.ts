import { parseConfig } from "@mw/platform";
import { purgeZone } from "@mw/providers/cdn";
import { ErpClient } from "@mw/providers/erp";
import { FraudClient } from "@mw/providers/fraud";
import { GatewayClient } from "@mw/providers/gateway";
import { describe, expect, it } from "vitest";
import { closedPort } from "../support/api.ts";

const KEY = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

/**
 * A URL default is kept only for a vendor the platform calls solely with that
 * vendor's own account configured (an AI key, a Harvest OAuth app, a Twilio
 * SID); every other outbound URL is unset until someone sets it, so a test
 * machine never reaches a real payment gateway, fraud service or CDN.
 */
const VENDOR_ACCOUNT_DEFAULTS = ["AI_BASE_URL", "HARVEST_ID_URL", "HARVEST_API_URL", "SMS_API_URL"];

describe("outbound URLs from the environment", () => {
  it("have no production defaults besides the vendor APIs that need the vendor's own account", () => {
    const config = parseConfig({ ENCRYPTION_KEY: KEY }) as unknown as Record<string, unknown>;
    const defaults = Object.entries(config).filter(([, value]) => typeof value === "string" && /^https?:\/\//.test(value));
    expect(defaults.map(([name]) => name).sort()).toEqual([...VENDOR_ACCOUNT_DEFAULTS].sort());
    expect([config.GATEWAY_QUERY_URL, config.FRAUD_API_URL, config.CDN_API_URL]).toEqual([undefined, undefined, undefined]);
  });

  it("say 'not configured' and which variable to set when unset, as the ERP does", async () => {
    expect(() => GatewayClient.fromConfig({ GATEWAY_QUERY_URL: undefined, HTTP_TIMEOUT_MS: 2000, GATEWAY_QUERY_MAX_PAGES: 20 })).toThrow(
      expect.objectContaining({ code: "gateway_not_configured", permanent: true, message: "payment gateway is not configured: GATEWAY_QUERY_URL is unset (set it in .env or the environment and restart the worker)" }),
    );
    expect(() => FraudClient.fromConfig({ FRAUD_API_URL: undefined, HTTP_TIMEOUT_MS: 2000 })).toThrow(
      expect.objectContaining({ code: "fraud_not_configured", message: expect.stringMatching(/^fraud service is not configured: FRAUD_API_URL is unset/) }),
    );
    await expect(purgeZone(undefined, "zone", "token", 2000)).rejects.toMatchObject({ code: "cdn_not_configured", message: expect.stringMatching(/^CDN API is not configured: CDN_API_URL is unset/) });
  });

  it("name the URL and the setting when nothing answers there", async () => {
    const port = await closedPort();
    const erp = ErpClient.fromConfig({ ERP_BASE_URL: `http://127.0.0.1:${port}/api/v2.0/companies(1)`, ERP_TOKEN: undefined, HTTP_TIMEOUT_MS: 2000, ENCRYPTION_KEY: Buffer.alloc(32), QUEUE_PREFIX: "outbound" })!;
    await expect(erp.findSalesOrderByExternalNumber("1")).rejects.toMatchObject({
      code: "upstream_unreachable",
      message: `ERP request failed: ECONNREFUSED, connection refused (nothing listens there) at http://127.0.0.1:${port} (ERP_BASE_URL): check ERP_BASE_URL and that the ERP is up`,
    });
    const gateway = GatewayClient.fromConfig({ GATEWAY_QUERY_URL: `http://127.0.0.1:${port}/api/query.php`, HTTP_TIMEOUT_MS: 2000, GATEWAY_QUERY_MAX_PAGES: 20 });
    await expect(gateway.findByAuthCode("key", "0123", { start: new Date(), end: new Date() })).rejects.toMatchObject({
      message: `payment gateway request failed: ECONNREFUSED, connection refused (nothing listens there) at http://127.0.0.1:${port} (GATEWAY_QUERY_URL): check GATEWAY_QUERY_URL and that the payment gateway is up`,
    });
  });
});
