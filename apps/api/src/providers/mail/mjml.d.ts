/** mjml 5 ships no types; this is the one call the mail layout makes (https://documentation.mjml.io/#usage). */
declare module 'mjml' {
  interface MjmlError {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  }
  interface MjmlOptions {
    /** `strict` refuses invalid MJML, `soft` reports it in `errors`, `skip` does neither. */
    validationLevel?: 'strict' | 'soft' | 'skip';
    keepComments?: boolean;
    minify?: boolean;
  }
  function mjml2html(mjml: string, options?: MjmlOptions): Promise<{ html: string; errors: MjmlError[] }>;
  export default mjml2html;
}
