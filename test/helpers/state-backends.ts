/**
 * Real Terraform state backends for tests, each started on 127.0.0.1 and a free port and
 * stopped afterwards:
 * - an `http` backend server (GET, POST, DELETE of a state per path, as terraform's http
 *   backend speaks it; no locking);
 * - PostgreSQL for the `pg` backend: Debian's `postgresql` binaries, a cluster of its own in
 *   a temporary folder (`initdb`, `pg_ctl`), run as the `postgres` user when the test runs as
 *   root (PostgreSQL refuses root);
 * - an S3-compatible server for the `s3` backend (s3rver, objects kept in a temporary folder),
 *   with one bucket.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import * as path from 'node:path';
import S3rver from 's3rver';
import { freePort } from './ports';

export interface HttpStateServer {
  /** The address of workspace state `name`. */
  url: (name: string) => string;
  /** The state text stored at `name`, if any. */
  stored: (name: string) => string | undefined;
  close: () => Promise<void>;
}

export async function startHttpStateServer(): Promise<HttpStateServer> {
  const states = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const key = new URL(req.url ?? '/', 'http://x').pathname;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET') {
        const text = states.get(key);
        res.writeHead(text === undefined ? 404 : 200, { 'content-type': 'application/json' });
        return res.end(text ?? '');
      }
      if (req.method === 'POST') states.set(key, Buffer.concat(chunks).toString('utf8'));
      else if (req.method === 'DELETE') states.delete(key);
      else res.statusCode = 405;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    stored: (name) => states.get(`/${name}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Where Debian installs PostgreSQL's server binaries (the newest version there). */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

export interface Postgres {
  /** A conn_str for the pg backend. */
  connString: string;
  stop: () => void;
}

/**
 * PostgreSQL refuses to run as root, so as root its programs run as the postgres user, who must
 * be able to pass through every folder above its own. A TMPDIR made by `mktemp -d` (as `.ci/run`
 * makes one) is 0700: it and any other such folder above gets o+x, passing through only, never
 * listing.
 */
function allowTraversal(dir: string): void {
  for (let d = dir; ; d = path.dirname(d)) {
    const mode = statSync(d).mode;
    if ((mode & 0o001) === 0) chmodSync(d, (mode & 0o7777) | 0o001);
    if (path.dirname(d) === d) return;
  }
}

export async function startPostgres(bin: string): Promise<Postgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-'));
  const data = path.join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) allowTraversal(path.dirname(dir));
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const run = (cmd: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : path.join(bin, cmd),
      asRoot ? ['-u', 'postgres', '--', path.join(bin, cmd), ...args] : args,
      {
        stdio: 'pipe',
        timeout: 60_000,
      },
    );
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  run('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']);
  return {
    connString: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface S3Server {
  /** The endpoint for the backend's `endpoints.s3`. */
  endpoint: string;
  bucket: string;
  /** The keys stored in the bucket (a workspace's state is under `env:/<workspace>/`). */
  keys: () => string[];
  close: () => Promise<void>;
}

/** Credentials s3rver accepts (its own fixed pair), as terraform's s3 backend reads them from the environment. */
export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export async function startS3Server(bucket = 'tfstate'): Promise<S3Server> {
  const dir = mkdtempSync(path.join(tmpdir(), 's3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const keys = (at: string, prefix: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? keys(path.join(at, e.name), `${prefix}${e.name}/`)
        : e.name.endsWith('._S3rver_object')
          ? [prefix + e.name.slice(0, -'._S3rver_object'.length)]
          : [],
    );
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    keys: () => keys(path.join(dir, bucket), '').sort(),
    close: async () => {
      try {
        await server.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
