import { finalUrgency, scoreByRules } from "@mw/shared/ai";
import { describe, expect, it } from "vitest";
import { URGENCY_TICKETS } from "../fixtures/urgency-tickets.ts";

describe("the built-in urgency engine", () => {
  it("agrees with the labelled level on at least 70 % of the tickets, and is never two levels off", () => {
    const order = ["LOW", "MEDIUM", "HIGH", "CRITICAL"];
    const results = URGENCY_TICKETS.map((ticket) => ({ ticket, level: finalUrgency(scoreByRules(ticket.subject, ticket.body), ticket.is_vip).level }));
    const agreed = results.filter((result) => result.level === result.ticket.level).length;
    expect(URGENCY_TICKETS.length).toBeGreaterThanOrEqual(30);
    expect(agreed / results.length).toBeGreaterThanOrEqual(0.7);
    const far = results.filter((result) => Math.abs(order.indexOf(result.level) - order.indexOf(result.ticket.level)) > 1);
    expect(far.map((result) => `${result.ticket.subject}: ${result.level}, labelled ${result.ticket.level}`)).toEqual([]);
  });

  it("names the factors it found, and the modifiers, in its reasoning", () => {
    const result = finalUrgency(scoreByRules("Checkout down", "Checkout is down and all customers see a 500 error; as a workaround we take orders by phone."), true);
    expect(result.reasoning).toMatch(/production down \+35/);
    expect(result.reasoning).toMatch(/multiple users \+15/);
    expect(result.reasoning).toMatch(/Modifiers: VIP client \+10, workaround available -15\./);
    expect(result.suggested_title).toBe("Checkout down");
  });
});
