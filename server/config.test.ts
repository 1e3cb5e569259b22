import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_APPROVED_DOMAINS, loadConfig } from './config';

const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('configuration', () => {
  it('has embedded defaults for everything', () => {
    const c = loadConfig({ DATA_DIR: dataDir });
    expect(c.port).toBe(5000);
    // This machine only, unless HOST says otherwise.
    expect(c.host).toBe('127.0.0.1');
    expect(c.appUrl).toBe('http://localhost:5000');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.smtpUrl).toBeUndefined();
    expect(c.approvedEmailDomains).toEqual(DEFAULT_APPROVED_DOMAINS);
    expect(c.approvedEmailDomains).toHaveLength(5);
    expect(c.secureCookies).toBe(false);
    // A model server that sends nothing holds the user a minute, not the whole 180 s of a reply.
    expect(c.modelFirstTokenTimeoutMs).toBe(60_000);
    // Each analysis worker's JavaScript heap: 2 GB, as before it was a setting.
    expect(c.analysisWorkerHeapMb).toBe(2048);
    // The generated session secret survives a restart.
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(c.sessionSecret);
  });

  it('reads every documented variable', () => {
    const c = loadConfig({
      PORT: '6000',
      APP_URL: 'https://atrium.example.com/',
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://u@db:5432/atrium',
      REDIS_URL: 'redis://cache:6379',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'Atrium <hi@example.com>',
      APPROVED_EMAIL_DOMAINS: 'A.com, b.org ,c.net,d.io,e.co',
      SESSION_SECRET: 'x'.repeat(40),
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_API_KEY: 'sk-test',
      LOG_LEVEL: 'warn',
      HOST: '0.0.0.0',
      ANALYSIS_WORKER_HEAP_MB: '512',
    });
    expect(c).toMatchObject({
      port: 6000,
      host: '0.0.0.0',
      appUrl: 'https://atrium.example.com',
      secureCookies: true,
      approvedEmailDomains: ['a.com', 'b.org', 'c.net', 'd.io', 'e.co'],
      logLevel: 'warn',
      openaiBaseUrl: 'http://localhost:11434/v1',
      analysisWorkerHeapMb: 512,
    });
  });

  it.each([
    [
      'PORT',
      'abc',
      'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")',
    ],
    [
      'PORT',
      '70000',
      'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "70000")',
    ],
    [
      'HOST',
      'http://0.0.0.0',
      'Invalid configuration: HOST must be an address to listen on, such as 127.0.0.1, 0.0.0.0 or :: (got "http://0.0.0.0")',
    ],
    [
      'DATABASE_URL',
      'mysql://x',
      'Invalid configuration: DATABASE_URL must be a URL starting with postgres:// or postgresql:// (got "mysql://x")',
    ],
    [
      'LOG_LEVEL',
      'loud',
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    [
      'APPROVED_EMAIL_DOMAINS',
      'not a domain',
      'Invalid configuration: APPROVED_EMAIL_DOMAINS must be a comma-separated list of domains such as example.com (got "not a domain")',
    ],
    [
      'SESSION_SECRET',
      'short',
      'Invalid configuration: SESSION_SECRET must be at least 32 characters (got "short")',
    ],
    [
      'ANALYSIS_WORKER_HEAP_MB',
      '2GB',
      'Invalid configuration: ANALYSIS_WORKER_HEAP_MB must be a whole number of megabytes from 64 to 65536 (got "2GB")',
    ],
    [
      'ANALYSIS_WORKER_HEAP_MB',
      '16',
      'Invalid configuration: ANALYSIS_WORKER_HEAP_MB must be a whole number of megabytes from 64 to 65536 (got "16")',
    ],
  ])('refuses a bad %s with a one-line explanation', (name, value, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir, [name]: value })).toThrow(
      new ConfigError(message),
    );
  });
});
