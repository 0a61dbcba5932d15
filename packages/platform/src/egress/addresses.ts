import ipaddr from "ipaddr.js";
import { canonicalAddress, specialIpv6Refusal } from "./special-ranges.ts";

/** The ranges of ipaddr.js that are refused, in words for the error message; everything but global unicast is. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address (cloud metadata services answer there)",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  uniqueLocal: "a unique local (private IPv6) address",
};

/** IPv6 forms that carry an IPv4 address in their last 32 bits: judged by that address. */
const EMBEDS_IPV4 = new Set(["ipv4Mapped", "rfc6145", "rfc6052"]);

/**
 * Why `address` must not be called from a URL someone entered, in words
 * ("a loopback address"), or null for a public unicast address. Loopback,
 * private (RFC 1918), carrier-grade NAT, link-local (cloud metadata at
 * 169.254.169.254), unique local IPv6, unspecified, multicast and the reserved
 * ranges are refused, IPv4 inside IPv6 (`::ffff:127.0.0.1`, NAT64) by its IPv4
 * address, and the IPv6 ranges ipaddr.js does not know (special-ranges.ts).
 * Text that is not an address is refused too.
 */
export function addressRefusal(address: string): string | null {
  if (!ipaddr.isValid(address)) return "not an IP address";
  let parsed = ipaddr.parse(canonicalAddress(address));
  if (parsed.kind() === "ipv6" && EMBEDS_IPV4.has(parsed.range())) {
    const bytes = (parsed as ipaddr.IPv6).toByteArray().slice(12);
    parsed = new ipaddr.IPv4(bytes);
  }
  const range = parsed.range();
  if (range === "unicast") return parsed.kind() === "ipv6" ? specialIpv6Refusal(parsed as ipaddr.IPv6) : null;
  return RANGE_WORDS[range] ?? "a reserved address";
}
