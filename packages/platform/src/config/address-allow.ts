import ipaddr from "ipaddr.js";

/** The ranges the names of TRUST_PROXY (Express's proxy-addr) stand for, as CIDR ranges. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function rangeOf(entry: string): Range[] {
  const named = NAMED_RANGES[entry];
  if (named) return named.map((cidr) => ipaddr.parseCIDR(cidr));
  if (entry.includes("/")) return [ipaddr.parseCIDR(entry)];
  const address = ipaddr.parse(entry);
  return [[address, address.kind() === "ipv4" ? 32 : 128]];
}

/**
 * Whether a client address is one of `entries` (addresses, CIDR ranges, or
 * `loopback`, `linklocal`, `uniquelocal`, as TRUST_PROXY takes them). An
 * IPv4 address written inside IPv6 (`::ffff:127.0.0.1`, as a dual-stack
 * socket reports it) is matched as IPv4. Entries are checked by the config
 * schema (`parseAddressList`).
 */
export function addressAllowList(entries: readonly string[]): (address: string | undefined) => boolean {
  const ranges = entries.flatMap(rangeOf);
  return (address) => {
    if (!address || !ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address);
    return ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  };
}
