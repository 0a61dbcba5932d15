export function builtSinceChanged(root: string, pkg: string): boolean;
