/**
 * Reusable memory for the chunks of a long streamed response (the audit CSV).
 *
 * Each chunk written as a fresh ArrayBuffer stays allocated until V8 counts ~64 MB of such dead
 * buffers and collects them, so a 1,000,000-row export grew the server by ~70 MB of sent chunks.
 * The ring keeps a few fixed slots instead (shared memory, so the audit worker thread can encode
 * straight into them) and lets a slot be written again only once the socket has finished sending
 * every byte of the chunk it held. When no slot is free yet, the caller allocates that one chunk.
 */

/** How the response's writing is going, from the server that owns the socket. */
export interface ResponseFlow {
  /** Resolves once the client has taken what was written (or left). */
  drained(): Promise<void>;
  /** Bytes the socket has finished sending since this response began; null while any write is still pending. */
  flushedBytes(): number | null;
}

export const CHUNK_SLOT_BYTES = 1024 * 1024;
const SLOTS = 4;
/** Response headers, counted in the socket's bytes but not in the payload (a generous bound). */
const HEADERS_HEADROOM = 64 * 1024;
/** Chunked-encoding framing per chunk: hexadecimal size and two CRLFs. */
const FRAMING_PER_CHUNK = 32;

export class ChunkRing {
  readonly memory = new SharedArrayBuffer(SLOTS * CHUNK_SLOT_BYTES);
  /** Per slot: the payload offset at which the chunk it holds ends; null when the slot is free. */
  private readonly heldUntil: (number | null)[] = Array.from({ length: SLOTS }, () => null);
  private nextSlot = 0;
  private payloadBytes = 0;
  private chunks = 0;

  constructor(private readonly flushedBytes: () => number | null) {}

  /**
   * The slot the next chunk may be written into, or null when the chunk it holds may still be in
   * flight. "Sent" is strict: nothing pending on the socket, and the socket's finished bytes reach
   * past the chunk's end even if every header and framing byte came before it.
   */
  claim(): number | null {
    const slot = this.nextSlot;
    const end = this.heldUntil[slot];
    if (end === null || end === undefined) return slot;
    const flushed = this.flushedBytes();
    if (flushed === null || flushed < end + HEADERS_HEADROOM + FRAMING_PER_CHUNK * this.chunks) return null;
    this.heldUntil[slot] = null;
    return slot;
  }

  /** The bytes of `slot` holding a chunk of `length` bytes (a view, not a copy). */
  view(slot: number, length: number): Uint8Array {
    return new Uint8Array(this.memory, slot * CHUNK_SLOT_BYTES, length);
  }

  /** Records a chunk going out: in `slot`, or (null) in memory of its own. */
  sent(slot: number | null, length: number): void {
    this.payloadBytes += length;
    this.chunks++;
    if (slot === null) return;
    this.heldUntil[slot] = this.payloadBytes;
    this.nextSlot = (slot + 1) % SLOTS;
  }
}

/** Encodes `text` into a free slot when it fits, else into new memory; records it as sent. */
export function encodeChunk(ring: ChunkRing, encoder: TextEncoder, text: string): Uint8Array {
  const slot = ring.claim();
  if (slot !== null) {
    const { read, written } = encoder.encodeInto(text, ring.view(slot, CHUNK_SLOT_BYTES));
    if (read === text.length) {
      ring.sent(slot, written);
      return ring.view(slot, written);
    }
  }
  const bytes = encoder.encode(text);
  ring.sent(null, bytes.byteLength);
  return bytes;
}
