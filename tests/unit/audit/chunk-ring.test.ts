import { describe, expect, it } from "vitest";
import { CHUNK_SLOT_BYTES, ChunkRing, encodeChunk } from "../../../src/lib/server/audit/chunk-ring";

const encoder = new TextEncoder();
const isSlot = (bytes: Uint8Array, ring: ChunkRing) => bytes.buffer === ring.memory;

describe("the chunk ring of a streamed export", () => {
  it("reuses a slot only once the socket has sent past the chunk it held, headers and framing included", () => {
    let flushed: number | null = null;
    const ring = new ChunkRing(() => flushed);
    const chunk = "x".repeat(100_000);
    // Four slots: the first four chunks go into them without asking the socket anything.
    for (let n = 0; n < 4; n++) expect(isSlot(encodeChunk(ring, encoder, chunk), ring)).toBe(true);
    // The fifth would overwrite the first chunk: nothing is known to be sent, so it gets memory of its own.
    expect(isSlot(encodeChunk(ring, encoder, chunk), ring)).toBe(false);
    // A write still pending (null), or sent bytes that only just cover the payload, is not enough.
    flushed = 100_000;
    expect(ring.claim()).toBeNull();
    flushed = 100_000 + 64 * 1024 + 32 * 5;
    expect(ring.claim()).toBe(0);
    flushed = null;
    expect(ring.claim()).toBe(0);
  });

  it("gives a chunk larger than a slot memory of its own, with every byte intact", () => {
    const ring = new ChunkRing(() => null);
    const text = "ação;".repeat(CHUNK_SLOT_BYTES / 4);
    const bytes = encodeChunk(ring, encoder, text);
    expect(isSlot(bytes, ring)).toBe(false);
    expect(new TextDecoder().decode(bytes)).toBe(text);
    // The slot it could not use stays free for the next chunk.
    expect(ring.claim()).toBe(0);
  });

  it("returns exactly the encoded text as a view of its slot", () => {
    const ring = new ChunkRing(() => null);
    const text = "Data/Hora,Usuário\r\n23/11/2026 10:00,José\r\n";
    const bytes = encodeChunk(ring, encoder, text);
    expect(isSlot(bytes, ring)).toBe(true);
    expect(new TextDecoder().decode(bytes)).toBe(text);
  });
});
