// Redirects to an address's canonical form (its final slash, a DOI's newer spelling) keep the
// query of the address asked for, as the original's strict-slash redirects did: `?preview=1`, a
// `next`, a citation tool's parameters.

/** `path` followed by the query string of `url` (the request's address), if it has one. */
export function withQueryOf(url: string, path: string): string {
  const query = url.indexOf('?');
  return query >= 0 ? path + url.slice(query) : path;
}

/** `url` with a slash after its path, the query kept: `/collection/7?x=1` gives `/collection/7/?x=1`. */
export function withFinalSlash(url: string): string {
  const query = url.indexOf('?');
  return withQueryOf(url, `${query >= 0 ? url.slice(0, query) : url}/`);
}
