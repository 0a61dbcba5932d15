import { sendSms, smsConfigured } from "@mw/providers/sms";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSms } from "../fakes/sms.ts";
import { failure } from "../support/errors.ts";

let sms: FakeSms;
const config = () => ({ SMS_API_URL: sms.url, SMS_ACCOUNT_SID: "AC55aa", SMS_AUTH_TOKEN: "token-9f", SMS_FROM: "+15550001111", HTTP_TIMEOUT_MS: 1000 });

beforeAll(async () => {
  sms = await new FakeSms("AC55aa", "token-9f").start();
});
afterAll(() => sms.stop());

describe("SMS client (Twilio Messages API, contract sheet section 6)", () => {
  it("posts To, From and Body with Basic SID:token, or MessagingServiceSid for an MG sender", async () => {
    expect(await sendSms(config(), "+15550000009", "CRITICAL ticket #004512")).toMatchObject({ status: "queued", sid: expect.stringMatching(/^SM/) });
    await sendSms({ ...config(), SMS_FROM: "MG0123" }, "+15550000009", "again");
    expect(sms.sent.map((text) => [text.to, text.from, text.messagingServiceSid, text.body])).toEqual([
      ["+15550000009", "+15550001111", null, "CRITICAL ticket #004512"],
      ["+15550000009", null, "MG0123", "again"],
    ]);
  });

  it("fails for good on a bad number or credentials, and retryably on 429, naming Twilio's code", async () => {
    const badNumber = await failure(sendSms(config(), "555-0100", "hi"));
    expect(badNumber).toMatchObject({ permanent: true, data: { sms_code: 21211 } });
    expect(badNumber.message).toContain("21211");
    expect(await failure(sendSms({ ...config(), SMS_AUTH_TOKEN: "wrong" }, "+15550000009", "hi"))).toMatchObject({ permanent: true, data: { sms_code: 20003 } });
    sms.failNext = 1;
    expect(await failure(sendSms(config(), "+15550000009", "hi"))).toMatchObject({ permanent: false, data: { sms_code: 20429 } });
  });

  it("is configured only with an account, a token and a sender", () => {
    expect(smsConfigured(config())).toBe(true);
    expect(smsConfigured({ ...config(), SMS_FROM: undefined })).toBe(false);
    expect(smsConfigured({ ...config(), SMS_AUTH_TOKEN: "" })).toBe(false);
  });
});
