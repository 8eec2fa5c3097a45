/**
 * A local DNS server for tests (UDP on 127.0.0.1, a free port), answering like a recursive
 * resolver from a zone of chosen records: CNAME chains followed, NXDOMAIN for names not in the
 * zone, NODATA for names without the record asked. Packets are read and written with
 * dns-packet. Per name it can also fail (SERVFAIL), stay silent (never answer), or answer late.
 */
import { createSocket, type Socket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';

export interface ZoneEntry {
  A?: string[];
  AAAA?: string[];
  CNAME?: string;
  MX?: Array<{ exchange: string; priority: number }>;
  /**
   * A string is sent as UTF-8, in character-strings of at most 255 bytes (a character may be
   * split between two, as zone tools split by bytes); an array of buffers is sent as those
   * character-strings, byte for byte.
   */
  TXT?: Array<string | Buffer[]>;
  /** Answer SERVFAIL. */
  servfail?: boolean;
  /** Never answer. */
  silent?: boolean;
}

export type Zone = Record<string, ZoneEntry>;

export interface RunningDns {
  /** `127.0.0.1:<port>`, for --resolver. */
  address: string;
  port: number;
  /** Queries received, as `TYPE name`. */
  queries: string[];
  zone: Zone;
  close(): Promise<void>;
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

/**
 * `delayMs`: every answer is sent this much later (the latency of a real resolver); `silent`:
 * no query is ever answered (a resolver that is unreachable).
 */
export async function startDnsServer(
  zone: Zone,
  opts: { delayMs?: number; silent?: boolean } = {},
): Promise<RunningDns> {
  const socket: Socket = createSocket('udp4');
  const queries: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const answer = (query: dnsPacket.Packet): { rcode: number; answers: dnsPacket.Answer[] } | null => {
    const q = query.questions![0];
    const name = q.name.toLowerCase().replace(/\.$/, '');
    const answers: dnsPacket.Answer[] = [];
    let current = name;
    // Long enough for a 20-hop chain; a loop ends in SERVFAIL, as resolvers answer it.
    for (let hop = 0; hop < 32; hop++) {
      const entry = zone[current];
      if (!entry) return { rcode: answers.length ? RCODE.NOERROR : RCODE.NXDOMAIN, answers };
      if (entry.silent) return null;
      if (entry.servfail) return { rcode: RCODE.SERVFAIL, answers: [] };
      if (entry.CNAME && q.type !== 'CNAME') {
        answers.push({ type: 'CNAME', name: current, ttl: 60, data: entry.CNAME });
        current = entry.CNAME;
        continue;
      }
      if (q.type === 'CNAME' && entry.CNAME) answers.push({ type: 'CNAME', name: current, ttl: 60, data: entry.CNAME });
      if (q.type === 'A') for (const a of entry.A ?? []) answers.push({ type: 'A', name: current, ttl: 60, data: a });
      if (q.type === 'AAAA')
        for (const a of entry.AAAA ?? []) answers.push({ type: 'AAAA', name: current, ttl: 60, data: a });
      if (q.type === 'MX')
        for (const m of entry.MX ?? [])
          answers.push({ type: 'MX', name: current, ttl: 60, data: { exchange: m.exchange, preference: m.priority } });
      if (q.type === 'TXT')
        for (const t of entry.TXT ?? []) {
          // Strings of at most 255 bytes each, as a real record carries a long value.
          const bytes = typeof t === 'string' ? Buffer.from(t, 'utf8') : null;
          const chunks: Buffer[] = bytes ? [] : (t as Buffer[]);
          if (bytes) for (let i = 0; i < bytes.length; i += 255) chunks.push(bytes.subarray(i, i + 255));
          answers.push({ type: 'TXT', name: current, ttl: 60, data: chunks.length ? chunks : [Buffer.alloc(0)] });
        }
      return { rcode: RCODE.NOERROR, answers };
    }
    return { rcode: RCODE.SERVFAIL, answers: [] };
  };
  socket.on('message', (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const q = query.questions?.[0];
    if (!q) return;
    queries.push(`${q.type} ${q.name.toLowerCase()}`);
    const a = opts.silent ? null : answer(query);
    if (!a) return;
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | a.rcode,
      questions: query.questions,
      answers: a.answers,
    });
    const send = () => socket.send(response, remote.port, remote.address);
    if (!opts.delayMs) return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, opts.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    queries,
    zone,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        socket.close(() => resolve());
      }),
  };
}
