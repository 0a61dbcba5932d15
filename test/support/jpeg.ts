/**
 * Deterministic bytes framed like a JPEG (SOI marker first, EOI last): the
 * image API passes files through untouched, so no image library is needed.
 */
export function fakeJpeg(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let state = seed >>> 0;
  for (let i = 0; i < size; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  bytes.set([0xff, 0xd8, 0xff, 0xe0], 0);
  bytes.set([0xff, 0xd9], size - 2);
  return bytes;
}
