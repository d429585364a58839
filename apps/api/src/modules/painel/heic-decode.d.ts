/** heic-decode ships no types; this is the one call the photo upload uses. */
declare module 'heic-decode' {
  export default function decode(input: { buffer: Buffer | ArrayBuffer | Uint8Array }): Promise<{
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }>;
}
