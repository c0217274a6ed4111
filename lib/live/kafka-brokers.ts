// Can any of the bootstrap brokers be reached? Asked before the client is
// started, because the client cannot say it in good time: its connect()
// waits out a 30-second metadata request, then fails as if the program had
// (exit 1), though the host did not resolve or refused the connection at
// once. A TCP connection to each broker, all at the same time, each given
// CONNECT_TIMEOUT_MS (a host that drops packets answers nothing): the first
// that connects is enough — the client finds the rest of the cluster from it.
import { connect } from 'node:net';
import { describeErrno } from '../core/errors.js';

/** How long a broker may take to accept a connection. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Kafka's default port, as the client takes it for a broker named without one. */
const DEFAULT_PORT = 9092;

/** `host:port`, `[v6::addr]:port`, `host` (port 9092), with an optional `PLAINTEXT://`-style prefix. */
export function parseBroker(broker: string): { host: string; port: number } {
  const bare = broker.replace(/^[A-Za-z_]+:\/\//, '');
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(bare);
  if (v6) return { host: v6[1]!, port: v6[2] === undefined ? DEFAULT_PORT : Number(v6[2]) };
  const colon = bare.lastIndexOf(':');
  if (colon === -1 || !/^\d+$/.test(bare.slice(colon + 1))) return { host: bare, port: DEFAULT_PORT };
  return { host: bare.slice(0, colon), port: Number(bare.slice(colon + 1)) };
}

/** Why `broker` cannot be reached, or undefined once it accepts a connection. */
function reach(broker: string, timeoutMs: number): Promise<string | undefined> {
  const { host, port } = parseBroker(broker);
  if (!(port > 0 && port < 65536)) return Promise.resolve(`port ${port} is not a TCP port`);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (why: string | undefined): void => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer in ${timeoutMs / 1000} s`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (err: NodeJS.ErrnoException) => done(describeErrno(err)));
  });
}

/** Undefined once some broker accepts a connection; else each broker and why it did not, for one line. */
export function unreachableBrokers(brokers: readonly string[], timeoutMs = CONNECT_TIMEOUT_MS): Promise<string | undefined> {
  return new Promise((resolve) => {
    const why: string[] = [];
    let failed = 0;
    brokers.forEach((broker, i) => {
      void reach(broker, timeoutMs).then((w) => {
        // The first broker that answers is enough: the others are not waited for.
        if (w === undefined) return resolve(undefined);
        why[i] = `${broker}: ${w}`;
        if (++failed === brokers.length) resolve(why.join('; '));
      });
    });
  });
}
