/** heic-decode ships no types; these are the calls the photo upload uses. */
declare module 'heic-decode' {
  interface DecodedHeic {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  /** Decodes the first image of the file. */
  function decode(input: { buffer: Buffer | ArrayBuffer | Uint8Array }): Promise<DecodedHeic>;
  namespace decode {
    /**
     * Parses the file into image handles: their dimensions are known before any pixel is decoded.
     * `dispose()` frees libheif's memory once done with them.
     */
    function all(input: {
      buffer: Buffer | ArrayBuffer | Uint8Array;
    }): Promise<
      Array<{ width: number; height: number; decode(): Promise<DecodedHeic> }> & { dispose(): void }
    >;
  }
  export default decode;
}
