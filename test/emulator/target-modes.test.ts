import { EmulatorControlError, DEMO_ACCOUNT, startEmulator } from '../../src/emulator';
import { call, useEmulator } from '../helpers/emulator';

// The strict modes for domains and subdomains: a create answering without the id, an
// ambiguous create (the connection dropped after the write), a duplicate refused, and a
// delete taking the alerts of its target along.

const emu = useEmulator();
const T = DEMO_ACCOUNT.token;

async function domainNames(): Promise<string[]> {
  const res = await call(emu().url, 'GET', '/api/domains', { token: T });
  return res.body.domains.map((d: { domain: string }) => d.domain);
}

async function alertCount(): Promise<number> {
  return (await call(emu().url, 'GET', '/api/alerts/', { token: T })).body.alerts.length;
}

describe('targetCreateOmitsId', () => {
  it('answers a domain and a subdomain create OK without the id; the list has both', async () => {
    await emu().control.updateSettings({ targetCreateOmitsId: true });
    const d = await call(emu().url, 'POST', '/api/domains', { token: T, json: { domain: 'new.test' } });
    expect(d.status).toBe(200);
    expect(d.body.status).toBe('OK');
    expect(d.body.domain).toMatchObject({ domain: 'new.test' });
    expect(d.body.domain).not.toHaveProperty('id');
    const listed = (await call(emu().url, 'GET', '/api/domains', { token: T })).body.domains.find(
      (x: { domain: string }) => x.domain === 'new.test',
    );
    expect(listed.id).toEqual(expect.any(Number));
    const s = await call(emu().url, 'POST', `/api/domains/${listed.id}/subdomains/www`, { token: T });
    expect(s.body.subdomain).toMatchObject({ prefix: 'www', subdomain: 'www.new.test' });
    expect(s.body.subdomain).not.toHaveProperty('id');
  });

  it('is off by default and after reset', async () => {
    await emu().control.updateSettings({ targetCreateOmitsId: true });
    await emu().control.reset();
    const d = await call(emu().url, 'POST', '/api/domains', { token: T, json: { domain: 'new.test' } });
    expect(d.body.domain.id).toEqual(expect.any(Number));
  });

  it('refuses a value that is not a boolean', async () => {
    const err = await emu()
      .control.updateSettings({ targetCreateOmitsId: 'yes' as never })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmulatorControlError);
    expect((err as EmulatorControlError).text).toContain('targetCreateOmitsId must be true or false');
  });
});

describe('duplicates and ambiguous creates', () => {
  it('refuses a duplicate domain name in any case, and a duplicate prefix, with NOT_SAVED', async () => {
    const again = await call(emu().url, 'POST', '/api/domains', { token: T, json: { domain: 'EXAMPLE.com' } });
    expect(again).toMatchObject({ status: 400, body: { status: 'NOT_SAVED' } });
    const sub = await call(emu().url, 'POST', '/api/domains/1/subdomains/WWW', { token: T });
    expect(sub).toMatchObject({ status: 400, body: { status: 'NOT_SAVED' } });
  });

  it('a drop after the write leaves the domain created, unknown to the client, and a retry refused', async () => {
    await emu().control.addFault({
      kind: 'drop',
      phase: 'after',
      count: 1,
      match: { method: 'POST', path: '/api/domains' },
    });
    const lost = await call(emu().url, 'POST', '/api/domains', { token: T, json: { domain: 'lost.test' } }).catch(
      (e: unknown) => e,
    );
    expect(lost).toBeInstanceOf(Error);
    expect(await domainNames()).toContain('lost.test');
    const retry = await call(emu().url, 'POST', '/api/domains', { token: T, json: { domain: 'lost.test' } });
    expect(retry.body.status).toBe('NOT_SAVED');
    expect((await domainNames()).filter((n) => n === 'lost.test')).toHaveLength(1);
  });
});

describe('targetDeleteTakesAlerts', () => {
  async function plantOn(target: string): Promise<void> {
    await emu().control.createAlert('demo', { name: `on ${target}`, type: 'SPF Record', filter: 'validity', target });
  }

  it('off: a delete of a targeted domain is NOT_DELETED and nothing changes', async () => {
    await plantOn('example.org');
    const before = await alertCount();
    const res = await call(emu().url, 'DELETE', '/api/domains/4', { token: T });
    expect(res).toMatchObject({ status: 400, body: { status: 'NOT_DELETED' } });
    expect(await alertCount()).toBe(before);
    expect(await domainNames()).toContain('example.org');
  });

  it('on: a domain delete removes its subdomains and the alerts on either; a subdomain delete its own', async () => {
    await emu().control.updateSettings({ targetDeleteTakesAlerts: true });
    await plantOn('example.com');
    await plantOn('www.example.com');
    await plantOn('example.org');
    const before = await alertCount();
    const state = await emu().control.state();
    const demo = state.accounts.find((a) => a.name === 'demo')!;
    const onExampleCom = demo.alerts.filter(
      (a) =>
        (a.target_type === 'domain' && a.target_id === 1) ||
        (a.target_type === 'subdomain' && demo.subdomains.some((s) => s.domain_id === 1 && s.id === a.target_id)),
    ).length;
    expect(onExampleCom).toBeGreaterThanOrEqual(2);
    expect((await call(emu().url, 'DELETE', '/api/domains/1', { token: T })).body).toEqual({ status: 'OK' });
    expect(await alertCount()).toBe(before - onExampleCom);
    expect(await domainNames()).not.toContain('example.com');
    const after = (await emu().control.state()).accounts.find((a) => a.name === 'demo')!;
    expect(after.subdomains.some((s) => s.domain_id === 1)).toBe(false);
  });
});

describe('the start options', () => {
  it('set both modes, which reset returns to', async () => {
    const e = await startEmulator({ targetCreateOmitsId: true, targetDeleteTakesAlerts: true });
    try {
      await e.control.reset();
      expect(await e.control.settings()).toMatchObject({ targetCreateOmitsId: true, targetDeleteTakesAlerts: true });
    } finally {
      await e.close();
    }
  });
});
