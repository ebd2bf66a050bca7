/** One output line of Astro in Portuguese when its message is a known one; otherwise the line unchanged. */
export function translateLine(line: string): string;
