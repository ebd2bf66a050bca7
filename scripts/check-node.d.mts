/** Types of check-node.mjs (plain JS so the Node it refuses can run it). */
export function requiredNode(): [number, number];
export function nodeTooOld(version: string): boolean;
