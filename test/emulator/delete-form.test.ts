import {
  buildEmulator,
  DEMO_ACCOUNT,
  DELETE_FORMS,
  EmulatorControlError,
  startEmulator,
  type DeleteForm,
} from '../../src/emulator';
import { call, useEmulator, type CallResult } from '../helpers/emulator';

const emu = useEmulator();
const T = DEMO_ACCOUNT.token;
/** The start settings of an emulator built without options. */
const START = { deleteForm: null, randomSeed: null, targetCreateOmitsId: false, targetDeleteTakesAlerts: false };

/** One raw DELETE of alert `id`, carrying the id in `form`. */
function deleteIn(url: string, form: DeleteForm, id: number | string): Promise<CallResult> {
  switch (form) {
    case 'path':
      return call(url, 'DELETE', `/api/alerts/${id}`, { token: T });
    case 'query':
      return call(url, 'DELETE', `/api/alerts/?alert_id=${id}`, { token: T });
    case 'body':
      return call(url, 'DELETE', '/api/alerts/', { token: T, json: { alert_id: id } });
  }
}

async function plant(): Promise<number> {
  return (
    await emu().control.createAlert('demo', {
      name: 'victim',
      type: 'SPF Record',
      filter: 'validity',
      target: 'example.org',
    })
  ).id;
}

async function ids(url = emu().url): Promise<number[]> {
  return (await call(url, 'GET', '/api/alerts/', { token: T })).body.alerts.map((a: { id: number }) => a.id);
}

describe('one DELETE form, set at runtime', () => {
  const cases = DELETE_FORMS.flatMap((accepted) => DELETE_FORMS.map((sent) => [accepted, sent] as const));

  it.each(cases)('accepting only %s: a DELETE with the id in the %s', async (accepted, sent) => {
    expect(await emu().control.updateSettings({ deleteForm: accepted })).toMatchObject({ deleteForm: accepted });
    const id = await plant();
    const res = await deleteIn(emu().url, sent, id);
    if (accepted === sent) {
      expect(res).toMatchObject({ status: 200, body: { status: 'OK' } });
      expect(await ids()).toEqual([]);
    } else {
      // The id is missing from where it looks: exactly the error body, and nothing deleted.
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'MISSING_VALUES' });
      expect(await ids()).toEqual([id]);
    }
  });

  it.each(DELETE_FORMS)(
    'accepting only %s: an unknown id in a form it does not read is MISSING_VALUES, never NOT_FOUND',
    async (accepted) => {
      await emu().control.updateSettings({ deleteForm: accepted });
      for (const sent of DELETE_FORMS) {
        const res = await deleteIn(emu().url, sent, 999);
        expect([sent, res.status, res.body]).toEqual([
          sent,
          400,
          { status: sent === accepted ? 'NOT_FOUND' : 'MISSING_VALUES' },
        ]);
      }
    },
  );

  it('accepting only body: the JSON body also counts without a content type; any other body is missing', async () => {
    await emu().control.updateSettings({ deleteForm: 'body' });
    const id = await plant();
    const plain = await call(emu().url, 'DELETE', '/api/alerts/', {
      token: T,
      body: `{"alert_id": ${id}}`,
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain).toMatchObject({ status: 400, body: { status: 'MISSING_VALUES' } });
    const bare = await call(emu().url, 'DELETE', '/api/alerts/', { token: T, body: `{"alert_id": ${id}}` });
    expect(bare).toMatchObject({ status: 200, body: { status: 'OK' } });
  });

  it('accepting only query: the id in both path and query deletes the query one', async () => {
    await emu().control.updateSettings({ deleteForm: 'query' });
    const first = await plant();
    const second = await plant();
    expect((await call(emu().url, 'DELETE', `/api/alerts/${first}?alert_id=${second}`, { token: T })).body).toEqual({
      status: 'OK',
    });
    expect(await ids()).toEqual([first]);
  });

  it('authorization still comes first', async () => {
    await emu().control.updateSettings({ deleteForm: 'body' });
    expect((await call(emu().url, 'DELETE', '/api/alerts/1')).body).toEqual({ status: 'MISSING_HEADER' });
  });

  it('null accepts every form again; reset returns to the start setting', async () => {
    await emu().control.updateSettings({ deleteForm: 'path' });
    expect(await emu().control.updateSettings({ deleteForm: null })).toEqual({ ...START, deleteForm: null });
    for (const form of DELETE_FORMS) expect((await deleteIn(emu().url, form, await plant())).status).toBe(200);
    await emu().control.updateSettings({ deleteForm: 'path' });
    await emu().control.reset();
    expect(await emu().control.settings()).toEqual({ ...START, deleteForm: null });
  });

  it.each([
    [{ deleteForm: 'header' }, 'deleteForm must be one of path, query, body, or null for every form (got "header")'],
    [{ deleteForm: 1 }, 'deleteForm must be one of path, query, body'],
    [{ randomSeed: 1.5 }, 'randomSeed must be a whole number'],
    [
      { colour: 'red' },
      'colour is not a setting (known: deleteForm, randomSeed, targetCreateOmitsId, targetDeleteTakesAlerts)',
    ],
  ])('a bad setting %j is refused with a message and changes nothing', async (update, message) => {
    const err = await emu()
      .control.updateSettings(update as never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmulatorControlError);
    expect(err).toMatchObject({
      statusCode: 400,
      body: { status: 'INVALID_BODY', error: expect.stringContaining(message) },
    });
    expect(await emu().control.settings()).toEqual({ ...START, deleteForm: null });
  });
});

describe('the deleteForm option', () => {
  it('sets the start form, which reset returns to', async () => {
    const e = await startEmulator({ deleteForm: 'query' });
    try {
      expect(await e.control.settings()).toEqual({ ...START, deleteForm: 'query' });
      const { id } = await e.control.createAlert('demo', {
        name: 'x',
        type: 'SPF Record',
        filter: 'validity',
        target: 'example.org',
      });
      expect((await deleteIn(e.url, 'path', id)).body).toEqual({ status: 'MISSING_VALUES' });
      await e.control.updateSettings({ deleteForm: null });
      await e.control.reset();
      const again = await e.control.createAlert('demo', {
        name: 'y',
        type: 'SPF Record',
        filter: 'validity',
        target: 'example.org',
      });
      expect((await deleteIn(e.url, 'body', again.id)).body).toEqual({ status: 'MISSING_VALUES' });
      expect((await deleteIn(e.url, 'query', again.id)).body).toEqual({ status: 'OK' });
    } finally {
      await e.close();
    }
  });

  it('an unknown form is refused before anything starts', async () => {
    const err = await buildEmulator({ deleteForm: 'header' as never }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RangeError);
    expect((err as Error).message).toBe(
      'deleteForm must be one of path, query, body, or null for every form (got "header")',
    );
  });
});
