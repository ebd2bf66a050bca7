import { isIPv4, isIPv6 } from "node:net";

/** Eight 16-bit groups of an IPv6 address (`::` expanded, an embedded IPv4 tail converted). */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...Array<number>(missing).fill(0), ...right];
}

/** The first `groups` 16-bit groups of an IPv6 address, written as a prefix (`2001:db8:7::`); null for anything else. */
function ipv6Prefix(address: string, groups: number): string | null {
  const all = isIPv6(address) ? ipv6Groups(address) : null;
  return all
    ? `${all
        .slice(0, groups)
        .map((group) => group.toString(16))
        .join(":")}::`
    : null;
}

/** For LGPD: an IPv4 address loses its last octet, an IPv6 address its last 80 bits (it keeps the /48). */
export function maskIpAddress(address: string | null | undefined): string | null {
  if (!address) return null;
  if (isIPv4(address)) return address.replace(/\.\d+$/, ".0");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return `::ffff:${mapped[1]!.replace(/\.\d+$/, ".0")}`;
  return ipv6Prefix(address, 3) ?? address;
}

/**
 * The network a client is counted by: an IPv4 address itself (an IPv4-mapped IPv6 address as its
 * IPv4), an IPv6 address its /64, the block one home or office usually holds whole.
 */
export function clientNetwork(address: string | null | undefined): string {
  if (!address) return "";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const prefix = ipv6Prefix(address, 4);
  return prefix ? `${prefix}/64` : address;
}
