import ipaddr from "ipaddr.js";

/**
 * IPv6 ranges that are not global unicast but that ipaddr.js (2.x) calls
 * `unicast`, checked against the IANA IPv6 Special-Purpose Address Registry
 * and the deprecated ranges that still reach local networks. Each with its
 * words for the error message.
 */
const NOT_GLOBAL_IPV6: [cidr: string, words: string][] = [
  // RFC 4291 2.5.5.1: `::a.b.c.d` (the URL parser writes `[::127.0.0.1]` as `[::7f00:1]`) carries an IPv4 address.
  ["::/96", "an IPv4-compatible address (deprecated; it carries an IPv4 address)"],
  // RFC 8215: the local-use NAT64 prefix translates to IPv4 addresses of the operator's choosing, private ones included.
  ["64:ff9b:1::/48", "a local-use NAT64 address (it translates to an IPv4 address of the local network)"],
  // RFC 3879 deprecated site-local addresses; routers of old networks still route them inside.
  ["fec0::/10", "a site-local (private IPv6) address"],
  // RFC 9780: the dummy prefix, for hosts with no global address.
  ["100:0:0:1::/64", "a dummy address"],
  // RFC 9637.
  ["3fff::/20", "a documentation address"],
  // RFC 9602: segment identifiers of an SRv6 domain, routed inside it.
  ["5f00::/16", "an SRv6 segment identifier"],
];

const RANGES = NOT_GLOBAL_IPV6.map(([cidr, words]) => ({ range: ipaddr.parseCIDR(cidr) as [ipaddr.IPv6, number], words }));

/** Why an IPv6 address ipaddr.js calls unicast is not global, in words, or null when it is. */
export function specialIpv6Refusal(address: ipaddr.IPv6): string | null {
  return RANGES.find(({ range }) => address.match(range))?.words ?? null;
}

/**
 * The address as the network reads it. ipaddr.js reads `::a.b.c.d` as
 * `::ffff:a.b.c.d`, an IPv4-mapped address; the resolver and the socket read
 * it as `::<hex>`, IPv4-compatible: the URL parser's canonical form is theirs.
 */
export function canonicalAddress(address: string): string {
  if (!address.includes(":") || !address.includes(".")) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}
