export function entryBuilt(root: string, pkg: string): boolean;
