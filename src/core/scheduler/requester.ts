// The key of the fair queues: the account when signed in, else the client address (behind a
// proxy, Fastify's request.ip follows TRUST_PROXY), so that one person is one requester.
export function requesterOf(request: { user?: { id: number } | null; ip: string }): string {
  return request.user ? `account:${request.user.id}` : `address:${request.ip}`;
}
