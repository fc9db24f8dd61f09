// The key of the fair queues: the account when signed in, else the client's network (behind a
// proxy, Fastify's request.ip follows TRUST_PROXY; an IPv6 /64 counts as one client, core/http/
// client-network.ts), so that one person is one requester.
import { clientNetwork } from '../http/client-network.ts';

export function requesterOf(request: { user?: { id: number } | null; ip: string }): string {
  return request.user ? `account:${request.user.id}` : `address:${clientNetwork(request.ip)}`;
}
