// A free TCP port on the loopback address, for child servers that must be told their port. The
// child binds it a few seconds later (after its start-up): a port the system hands out for
// outgoing connections in the meantime (its ephemeral range) could be taken by one of them, so
// a port is drawn below that range where the system can tell it; only another child could take it.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port the system picks itself, where it tells (Linux); undefined elsewhere. */
function ephemeralLow(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : undefined;
  } catch {
    return undefined;
  }
}

/** Binds `port` (0: the system's choice) and closes it again; the port, or undefined when it is taken. */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (port !== 0 && error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

const FIRST_DRAWN = 10_000;

export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  if (low !== undefined && low - FIRST_DRAWN >= 1000) {
    for (let tries = 0; tries < 20; tries++) {
      const port = await probe(FIRST_DRAWN + Math.floor(Math.random() * (low - FIRST_DRAWN)));
      if (port !== undefined) return port;
    }
  }
  return (await probe(0))!;
}
