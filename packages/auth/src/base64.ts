/**
 * Base64 (RFC 4648 §4) of `bytes` with the `btoa` every runtime has, so no `Buffer` is needed.
 *
 * @example
 * base64(new TextEncoder().encode('id:a:b')); // 'aWQ6YTpi'
 */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
