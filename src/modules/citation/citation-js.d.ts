// The part of citation-js (no bundled types) that the citation module uses.
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown, options?: { forceType?: string });
    data: Record<string, any>[];
    format(format: string, options?: Record<string, unknown>): any;
  }
  export const plugins: { config: { get(name: string): any } };
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';
