/**
 * Distinct readers per page and week without storing who: a HyperLogLog sketch (Flajolet et al. 2007)
 * of 2^10 registers fed with a keyed hash of the person and the page (see `readerRegister`; SHA-256
 * under a random per-week key, keys.ts; the key is deleted once the week is over). Each register is one database row merged with `max`, so instances add up exactly
 * (the union of their sketches) in one upsert. Standard error ≈ 1.04/√1024 ≈ 3.3 % for large counts;
 * below 2.5 × 1024 the linear-counting correction is used, which is exact to within a reader or two
 * for the counts of a page (measured in tests/unit/insights/hll.test.ts).
 */
import { keyedWords } from "./keys.ts";

export const HLL_BITS = 10;
export const HLL_REGISTERS = 1 << HLL_BITS;

export interface RegisterUpdate {
  register: number;
  rank: number;
}

/** The register and rank (position of the first 1 bit after the register bits, from 1) of a 64-bit hash prefix. */
export function registerOf(high: number, low: number): RegisterUpdate {
  const register = high >>> (32 - HLL_BITS);
  const rest = high & ((1 << (32 - HLL_BITS)) - 1);
  const rank = rest !== 0 ? Math.clz32(rest) - HLL_BITS + 1 : 32 - HLL_BITS + Math.clz32(low) + 1;
  return { register, rank };
}

/** murmur3's 32-bit finaliser: every input bit moves about half the output bits. */
function mix32(value: number): number {
  value = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  value = Math.imul(value ^ (value >>> 13), 0xc2b2ae35);
  return (value ^ (value >>> 16)) >>> 0;
}

/** The first 64 bits of a keyed hash as two unsigned 32-bit words (keys.ts `keyedWords`). */
export type HashWords = readonly [high: number, low: number];

/**
 * The register update for one reader of one page under `key`: the person's keyed hash XOR the page's
 * (each computed once a week, keys.ts `keyedWords`), through three Feistel rounds. For one page the
 * XOR is as uniform and independent across people as the person's hash itself (the page's is a
 * constant), and the rounds, a bijection of the 64 bits, hide the XOR's structure across pages.
 */
export function readerRegister(key: Buffer, userId: string, page: string): RegisterUpdate {
  const packed = packedReaderUpdate(keyedWords(key, PERSON_PREFIX, userId), keyedWords(key, PAGE_PREFIX, page));
  return { register: packed >>> 8, rank: packed & 0xff };
}

/** The prefixes of the person's and the page's keyed hashes under a week's key. */
export const PERSON_PREFIX = "pessoa\u0000";
export const PAGE_PREFIX = "pagina\u0000";

/**
 * `readerRegister` from the person's and the page's hash words, as one number (register × 256 + rank):
 * what the collector computes per read, with no object made.
 */
export function packedReaderUpdate(person: HashWords, page: HashWords): number {
  const high0 = (person[0] ^ page[0]) >>> 0;
  const low1 = (person[1] ^ page[1] ^ mix32(high0)) >>> 0;
  const high = (high0 ^ mix32(low1)) >>> 0;
  const low = (low1 ^ mix32(high)) >>> 0;
  const register = high >>> (32 - HLL_BITS);
  const rest = high & ((1 << (32 - HLL_BITS)) - 1);
  const rank = rest !== 0 ? Math.clz32(rest) - HLL_BITS + 1 : 32 - HLL_BITS + Math.clz32(low) + 1;
  return register * 256 + rank;
}

/** A sketch's summary as stored (insights_reader_weeks): Σ 2^(52 − rank) over its set registers is an integer. */
export const HARMONIC_SHIFT = 52;

/** A register's share of the summary's harmonic sum (ranks past HARMONIC_SHIFT add nothing measurable). */
export function harmonicShare(rank: number): bigint {
  return rank > HARMONIC_SHIFT ? 0n : 1n << BigInt(HARMONIC_SHIFT - rank);
}

/**
 * The estimated number of distinct readers from a sketch's summary: `filled` registers set and
 * `harmonic` = Σ 2^(52 − rank) over them (absent registers are 0, each adding 1 to the sum).
 */
export function estimateFromSummary(filled: number, harmonic: number): number {
  const m = HLL_REGISTERS;
  const zeros = m - filled;
  const sum = harmonic / 2 ** HARMONIC_SHIFT + zeros;
  const alpha = 0.7213 / (1 + 1.079 / m);
  const raw = (alpha * m * m) / sum;
  if (raw <= 2.5 * m && zeros > 0) return Math.round(m * Math.log(m / zeros));
  return Math.round(raw);
}

/** The estimated number of distinct readers from the non-empty registers' ranks (absent registers are 0). */
export function estimateDistinct(ranks: Iterable<number>): number {
  let harmonic = 0n;
  let filled = 0;
  for (const rank of ranks) {
    harmonic += harmonicShare(rank);
    filled += 1;
  }
  return estimateFromSummary(filled, Number(harmonic));
}
