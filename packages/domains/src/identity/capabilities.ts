export const CAPABILITIES = ["manage_middleware", "manage_options", "staff"] as const;
export type Capability = (typeof CAPABILITIES)[number];

export function parseCapabilities(list: string): Capability[] {
  const names = list.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(CAPABILITIES as readonly string[]).includes(name));
  if (unknown.length) throw new Error(`unknown capabilities: ${unknown.join(", ")} (known: ${CAPABILITIES.join(", ")})`);
  return [...new Set(names)] as Capability[];
}
