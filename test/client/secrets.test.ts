import { ISSUED_TOKENS_KEPT, Secrets } from '../../src/client/secrets';

describe('Secrets', () => {
  it('keeps the configured secrets and only the last few issued tokens', () => {
    const secrets = new Secrets(['configured-token', undefined, 'client-secret']);
    for (let i = 1; i <= 100; i++) secrets.addIssued(`issued-${i}-abcdef`);
    expect(secrets.size).toBe(2 + ISSUED_TOKENS_KEPT);
    expect(ISSUED_TOKENS_KEPT).toBe(4);
    expect(secrets.redact('configured-token client-secret issued-100-abcdef issued-97-abcdef')).toBe(
      '[redacted] [redacted] [redacted] [redacted]',
    );
    // Forgotten: no longer scrubbed as a bare string, still scrubbed in the Bearer form.
    expect(secrets.redact('issued-96-abcdef')).toBe('issued-96-abcdef');
    expect(secrets.redact('Bearer issued-1-abcdef')).toBe('Bearer [redacted]');
  });

  it('a token issued again, or equal to a configured one, takes no extra place', () => {
    const secrets = new Secrets(['configured-token'], 2);
    secrets.addIssued('configured-token');
    secrets.addIssued('a-token');
    secrets.addIssued('b-token');
    secrets.addIssued('a-token');
    expect(secrets.size).toBe(3);
    secrets.addIssued('c-token');
    // b-token was the oldest once a-token came again.
    expect(secrets.redact('a-token b-token c-token')).toBe('[redacted] b-token [redacted]');
  });

  it('does not scrub secrets shorter than 4 characters', () => {
    expect(new Secrets(['abc']).redact('abc')).toBe('abc');
  });
});
