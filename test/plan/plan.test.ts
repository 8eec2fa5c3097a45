import { type LiveAlert } from '../../src/model';
import { planScope } from '../../src/plan/plan';
import { declared, liveAlert, scope, spec } from '../helpers/fixtures';

const live = (id: number, name: string, over: Partial<LiveAlert> = {}): LiveAlert =>
  liveAlert(id, { name, target_domain: { id: 1, domain: 'example.com' }, ...over });

describe('planScope', () => {
  it('creates what is missing, updates what differs, deletes what is undeclared (exclusive)', () => {
    // GIVEN
    const want = [declared('new'), declared('same'), declared('changed', { filter_value: '192.0.2.9' })];
    const have = [live(1, 'same'), live(2, 'changed'), live(3, 'old', { filter_value: '192.0.2.3' })];
    // WHEN
    const plan = planScope(scope(), want, have);
    // THEN
    expect(plan.changes.map((c) => [c.action, c.name, c.id, c.reason])).toEqual([
      ['update', 'changed', 2, 'changed'],
      ['create', 'new', null, 'missing'],
      ['delete', 'old', 3, 'undeclared'],
    ]);
    expect(plan.changes[0].fields).toEqual([{ field: 'filter_value', before: '192.0.2.1', after: '192.0.2.9' }]);
    expect(plan.unchanged).toBe(1);
  });

  it("GIVEN a policy's create for a target no live alert watches THEN it is a new target; a declared one, or beside a watched target, is missing", () => {
    const want = [
      { ...declared('policy, watched target'), fromPolicy: true as const },
      { ...declared('policy, new domain', { target_id: 7 }), fromPolicy: true as const },
      declared('declared, unwatched target', { target_id: 8 }),
    ];
    const plan = planScope(scope(), want, [live(1, 'kept', { target_id: 1, filter_value: '192.0.2.77' })]);
    expect(plan.changes.map((c) => [c.name, c.reason, c.newTarget ?? false])).toEqual([
      ['declared, unwatched target', 'missing', false],
      ['policy, new domain', 'missing', true],
      ['policy, watched target', 'missing', false],
      ['kept', 'undeclared', false],
    ]);
  });

  it('guards a scope that declares nothing but would delete every alert it owns (--allow-empty)', () => {
    const plan = planScope(scope(), [], [live(1, 'a'), live(2, 'b')]);
    expect(plan.changes.map((c) => [c.action, c.name])).toEqual([
      ['delete', 'a'],
      ['delete', 'b'],
    ]);
    expect(plan.warnings).toEqual([
      {
        scopeKey: 's/networkcalc',
        message:
          'stack s, provider networkcalc declares no alerts, so apply would delete all 2 live alerts its scope owns (ownership "exclusive"). ' +
          'apply refuses this unless --allow-empty is given; if it is not intended, check the app (a stack left out, a wrong --stack, alerts moved elsewhere), or use Ownership.additive() to only add',
        guard: { kind: 'empty_scope', flag: '--allow-empty', deletes: 2, owned: 2 },
      },
    ]);
    expect(
      planScope(scope({ ownership: 'prefix', prefix: 'p-' }), [], [live(1, 'p-a'), live(2, 'b')]).warnings[0].guard,
    ).toEqual({ kind: 'empty_scope', flag: '--allow-empty', deletes: 1, owned: 1 });
    expect(planScope(scope(), [declared('a')], [live(1, 'a'), live(2, 'b')]).warnings).toEqual([]);
    expect(planScope(scope({ ownership: 'additive' }), [], [live(1, 'a')]).warnings).toEqual([]);
    expect(planScope(scope(), [], []).warnings).toEqual([]);
    // destroy deletes on purpose: no guard
    expect(planScope(scope(), [], [live(1, 'a')], { mode: 'destroy', includeUndeclared: true }).warnings).toEqual([]);
  });

  it('guards deleting more than half and more than 10 of a scope (--allow-mass-delete), and only that', () => {
    const have = (n: number) => Array.from({ length: n }, (_, i) => live(i + 1, `a${i}`));
    // 11 of 21 deleted: more than 10 and more than half
    const plan = planScope(
      scope(),
      have(10).map((a) => declared(a.name)),
      have(21),
    );
    expect(plan.changes.filter((c) => c.action === 'delete')).toHaveLength(11);
    expect(plan.warnings.map((w) => w.guard)).toEqual([
      { kind: 'mass_delete', flag: '--allow-mass-delete', deletes: 11, owned: 21 },
    ]);
    expect(plan.warnings[0].message).toBe(
      'stack s, provider networkcalc: apply would delete 11 of the 21 live alerts its scope owns (ownership "exclusive"), more than 50 %. apply refuses this unless --allow-mass-delete is given; check that the app declares every alert it should',
    );
    // 11 of 22: exactly half is not more than half
    expect(
      planScope(
        scope(),
        have(11).map((a) => declared(a.name)),
        have(22),
      ).warnings,
    ).toEqual([]);
    // 10 of 11: not more than 10
    expect(planScope(scope(), [declared('a0')], have(11)).warnings).toEqual([]);
    // duplicates are deletions too
    const dupes = Array.from({ length: 12 }, (_, i) => live(i + 1, 'same'));
    expect(planScope(scope(), [declared('same')], dupes).warnings.map((w) => w.guard?.kind)).toEqual([
      'mass_delete',
      undefined,
    ]);
  });

  it('never diffs read-only server fields', () => {
    const have = [
      live(1, 'a', {
        current_status: 'triggered',
        last_triggered_at: '2025-01-01T00:00:00Z',
        is_active: false,
        user_id: 9,
      }),
    ];
    expect(planScope(scope(), [declared('a')], have).changes).toEqual([]);
  });

  it('plans a type change and a target change as one update, not delete + create', () => {
    const want = [
      declared('a', {
        type: 'SPF Record',
        subtype: null,
        filter: 'validity',
        filter_value: '',
        target_type: 'subdomain',
        target_id: 2,
      }),
    ];
    const plan = planScope(scope(), want, [live(5, 'a')]);
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({ action: 'update', id: 5 });
    expect(plan.changes[0].fields.map((f) => f.field)).toEqual([
      'type',
      'subtype',
      'filter',
      'filter_value',
      'target_type',
      'target_id',
    ]);
  });

  it('warns when a missing alert looks renamed by hand (case only, or out of the prefix), never touching it', () => {
    // Other settings: not a rename the plan can make, only one to warn about.
    let plan = planScope(scope(), [declared('WWW cert')], [live(4, 'www cert', { filter_value: '192.0.2.7' })]);
    expect(plan.changes.map((c) => [c.action, c.name])).toEqual([
      ['create', 'WWW cert'],
      ['delete', 'www cert'],
    ]);
    expect(plan.warnings.map((w) => w.message)).toEqual([
      '"WWW cert" is not in the account, but alert 4 "www cert" looks like it renamed: apply creates a new alert and deletes it as undeclared; to keep the old one, rename it back by hand',
    ]);
    plan = planScope(
      scope({ ownership: 'prefix', prefix: 'team-' }),
      [declared('team-cert'), declared('team-new')],
      [live(7, 'cert'), live(8, 'other')],
    );
    expect(plan.changes.map((c) => [c.action, c.name])).toEqual([
      ['create', 'team-cert'],
      ['create', 'team-new'],
    ]);
    expect(plan.warnings.map((w) => w.message)).toEqual([
      '"team-cert" is not in the account, but alert 7 "cert" looks like it renamed: apply creates a new alert and leaves it alone (it is outside this scope); to keep the old one, rename it back by hand',
    ]);
  });

  describe('a rename in the account', () => {
    const renamesOf = (plan: ReturnType<typeof planScope>) =>
      plan.changes.map((c) => [c.action, c.reason, c.name, c.id, c.fields.map((f) => [f.field, f.before, f.after])]);

    it('exclusive: the live alert with the settings of a missing one is named back, one update, id kept', () => {
      // GIVEN "www" renamed to "apex" in the console; "other" untouched
      const want = [declared('www'), declared('other', { filter_value: '192.0.2.2' })];
      const have = [live(5, 'apex'), live(6, 'other', { filter_value: '192.0.2.2' })];
      // WHEN
      const plan = planScope(scope(), want, have);
      // THEN
      expect(renamesOf(plan)).toEqual([['update', 'renamed', 'www', 5, [['name', 'apex', 'www']]]]);
      expect(plan.changes[0]!.after).toEqual(spec('www'));
      expect(plan.warnings).toEqual([]);
      expect(plan.unchanged).toBe(1);
    });

    it('a case-only rename is a rename too', () => {
      const plan = planScope(scope(), [declared('WWW cert')], [live(4, 'www cert')]);
      expect(renamesOf(plan)).toEqual([['update', 'renamed', 'WWW cert', 4, [['name', 'www cert', 'WWW cert']]]]);
    });

    it('prefix: renamed inside the prefix is named back; renamed out of it is left alone, with a warning', () => {
      const s = scope({ ownership: 'prefix', prefix: 'team-' });
      let plan = planScope(s, [declared('team-www')], [live(5, 'team-apex')]);
      expect(renamesOf(plan)).toEqual([['update', 'renamed', 'team-www', 5, [['name', 'team-apex', 'team-www']]]]);
      plan = planScope(s, [declared('team-www')], [live(5, 'apex')]);
      expect(renamesOf(plan)).toEqual([['create', 'missing', 'team-www', null, []]]);
      expect(plan.warnings.map((w) => w.message)).toEqual([
        '"team-www" is not in the account, but alert 5 "apex" looks like it renamed: apply creates a new alert and leaves it alone (it is outside this scope); to keep the old one, rename it back by hand',
      ]);
    });

    it('additive: never renames an alert it does not declare, warns instead', () => {
      const plan = planScope(scope({ ownership: 'additive' }), [declared('www')], [live(5, 'apex')]);
      expect(renamesOf(plan)).toEqual([['create', 'missing', 'www', null, []]]);
      expect(plan.warnings.map((w) => w.message)).toEqual([
        '"www" is not in the account, but alert 5 "apex" looks like it renamed: apply creates a new alert and leaves it alone (ownership "additive" never takes over an alert it does not declare); to keep the old one, rename it back by hand',
      ]);
    });

    it('two candidates on either side: no rename (creates and deletes, as before)', () => {
      // Two live alerts with the settings of one missing alert.
      let plan = planScope(scope(), [declared('www')], [live(5, 'a'), live(6, 'b')]);
      expect(plan.changes.map((c) => [c.action, c.name])).toEqual([
        ['create', 'www'],
        ['delete', 'a'],
        ['delete', 'b'],
      ]);
      // Two missing alerts with the settings of one live alert.
      plan = planScope(scope(), [declared('www'), declared('www2')], [live(5, 'a')]);
      expect(plan.changes.map((c) => [c.action, c.name])).toEqual([
        ['create', 'www'],
        ['create', 'www2'],
        ['delete', 'a'],
      ]);
    });

    it('a live alert whose name is declared is never taken for a rename; destroy renames nothing', () => {
      // "b" is declared and differs (an update); "a" missing with b's live settings.
      let plan = planScope(scope(), [declared('a'), declared('b', { filter_value: '192.0.2.9' })], [live(5, 'b')]);
      expect(plan.changes.map((c) => [c.action, c.reason, c.name])).toEqual([
        ['create', 'missing', 'a'],
        ['update', 'changed', 'b'],
      ]);
      plan = planScope(scope(), [declared('www')], [live(5, 'apex')], { mode: 'destroy' });
      expect(plan.changes).toEqual([]);
    });
  });

  it('prefix scope: only names with the prefix are managed', () => {
    const plan = planScope(
      scope({ ownership: 'prefix', prefix: 'team-' }),
      [declared('team-a')],
      [live(1, 'team-old', { filter_value: '192.0.2.3' }), live(2, 'other')],
    );
    expect(plan.changes.map((c) => [c.action, c.name])).toEqual([
      ['create', 'team-a'],
      ['delete', 'team-old'],
    ]);
  });

  it('additive scope: never deletes, not even duplicates', () => {
    const plan = planScope(
      scope({ ownership: 'additive' }),
      [declared('a')],
      [live(7, 'a'), live(3, 'a'), live(4, 'other')],
    );
    expect(plan.changes).toEqual([]);
    expect(plan.unchanged).toBe(1);
    expect(plan.warnings[0].message).toMatch(/managing the lowest id 3.*never deletes, so 7 stay/);
  });

  it('duplicate live names: keeps the lowest id, deletes the others, says so', () => {
    const plan = planScope(
      scope(),
      [declared('a', { filter_value: '192.0.2.2' })],
      [live(9, 'a'), live(4, 'a'), live(6, 'a')],
    );
    expect(plan.changes.map((c) => [c.action, c.id, c.reason])).toEqual([
      ['update', 4, 'changed'],
      ['delete', 6, 'duplicate'],
      ['delete', 9, 'duplicate'],
    ]);
    expect(plan.warnings[0].message).toMatch(
      /3 live alerts are named "a": keeping the lowest id 4 as the managed one, deleting 6, 9/,
    );
  });

  it('destroy: deletes declared names only, unless told to include the rest of the scope', () => {
    const have = [live(1, 'a'), live(2, 'b'), live(3, 'a')];
    expect(planScope(scope(), [declared('a')], have, { mode: 'destroy' }).changes.map((c) => c.id)).toEqual([1, 3]);
    expect(
      planScope(scope(), [declared('a')], have, { mode: 'destroy', includeUndeclared: true }).changes.map((c) => c.id),
    ).toEqual([1, 3, 2]);
    expect(
      planScope(scope({ ownership: 'additive' }), [declared('a')], have, {
        mode: 'destroy',
        includeUndeclared: true,
      }).changes.map((c) => c.id),
    ).toEqual([1, 3]);
  });

  it('is deterministic whatever the order of the live list', () => {
    const have = [live(3, 'c'), live(1, 'b'), live(2, 'a')];
    const a = planScope(scope(), [declared('z')], have);
    const b = planScope(scope(), [declared('z')], [...have].reverse());
    expect(a).toEqual(b);
  });
});
