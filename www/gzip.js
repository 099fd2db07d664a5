// gzip and base64 for a saved state (localStorage holds strings only), on
// whichever thread imports it: the save worker, or the page where no
// Worker can be made.

/** Bytes as base64, a slice at a time (a spread of millions of arguments would overflow the stack). */
export function base64(packed) {
  let binary = "";
  for (let i = 0; i < packed.length; i += 0x8000) binary += String.fromCharCode(...packed.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Text → gzip → base64. */
export async function gzipText(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return base64(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** base64 → gunzip → text. */
export async function gunzipText(packed) {
  const binary = atob(packed);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}
